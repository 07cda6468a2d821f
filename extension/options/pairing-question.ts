// The options page opened on `#pair=<id>` (pairing-consent.ts): asks the person "Connect this
// browser to <origin>?" and sends their answer to the background. The origin comes from the
// background, never from the URL, so a link cannot make the page show another one.
import type { BrowserApi } from '../shared/browser-api.ts';

export function pairingIdOf(hash: string): string | null {
  const match = /^#pair=([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return match ? match[1]! : null;
}

export async function showPairingQuestion(
  browser: Pick<BrowserApi, 'runtime'>,
  document: Document,
  hash: string,
): Promise<void> {
  const id = pairingIdOf(hash);
  if (!id) return;
  const question = (await browser.runtime.sendMessage({ kind: 'pairing_question', id }).catch(() => null)) as {
    id: string;
    origin: string;
  } | null;
  const section = document.getElementById('pairing');
  if (!section) return;
  const done = document.getElementById('pairing-done')!;
  const buttons = [
    document.getElementById('pairing-allow') as HTMLButtonElement,
    document.getElementById('pairing-deny') as HTMLButtonElement,
  ];
  section.hidden = false;
  if (!question) {
    document.getElementById('pairing-question')!.textContent =
      'This connection request has expired or was already answered.';
    for (const button of buttons) button.hidden = true;
    return;
  }
  document.getElementById('pairing-origin')!.textContent = question.origin;
  const answer = (allow: boolean) => async () => {
    for (const button of buttons) button.disabled = true;
    const reply = (await browser.runtime.sendMessage({ kind: 'pairing_answer', id, allow }).catch(() => null)) as {
      ok?: boolean;
    } | null;
    done.textContent = !reply?.ok
      ? 'This request has expired; nothing was changed.'
      : allow
        ? `Connecting to ${question.origin}…`
        : 'Not connected. Nothing was changed.';
  };
  buttons[0]!.addEventListener('click', answer(true));
  buttons[1]!.addEventListener('click', answer(false));
  buttons[0]!.focus();
}
