// "Connect this browser": pairs the Mimo extension of this browser with this server in one
// click (the token goes through the page bridge, see io/browser-pairing.ts).
import { useState } from 'preact/hooks';
import { nanoid } from 'nanoid';
import { connectThisBrowser, type BrowserPairingResult } from '../io/browser-pairing.ts';
import { resolveToken } from '../io/token.ts';

function storedToken(): string | undefined {
  try {
    return resolveToken(location.href, window.localStorage).token;
  } catch {
    return undefined;
  }
}

export function ConnectBrowser() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<BrowserPairingResult | null>(null);
  const connect = async () => {
    setBusy(true);
    setResult(null);
    const outcome = await connectThisBrowser(
      {
        window,
        newId: () => nanoid(12),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
      },
      storedToken(),
    );
    setResult(outcome);
    setBusy(false);
  };
  return (
    <div
      class="connect-browser"
      data-testid="connect-browser"
      data-status={result?.status ?? (busy ? 'pending' : 'idle')}
    >
      <button type="button" onClick={() => void connect()} disabled={busy}>
        {busy ? 'Confirm in the Mimo tab that opened…' : 'Connect this browser'}
      </button>
      {result && (
        <p class={result.ok ? 'muted' : 'error-text'} role="status">
          {result.message}
        </p>
      )}
    </div>
  );
}
