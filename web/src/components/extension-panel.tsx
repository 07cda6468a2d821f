import type { ExtensionListItem } from '../../../transport/contracts/http.ts';
import { CONNECT_EXTENSION_STEPS, type ExtensionModel } from '../models/extension-model.ts';
import { ConnectBrowser } from './connect-browser.tsx';

const nameOf = (e: ExtensionListItem) =>
  `${e.extensionName ?? 'Mimo extension'}${e.browserName ? ` · ${e.browserName}` : ''} (${e.clientId})`;

export function ExtensionPanel({ extensions, taskOpen }: { extensions: ExtensionModel; taskOpen: boolean }) {
  const state = extensions.viewState.value;
  const serving = extensions.serving.value;
  const error = extensions.error.value;
  return (
    <section class="panel-section" aria-labelledby="ext-title" data-testid="extension-panel" data-state={state}>
      <h2 id="ext-title">Browser extension</h2>
      {state === 'loading' && <p class="muted">Looking for connected extensions…</p>}
      {state === 'none' && (
        <div class="connect-steps">
          <p>
            <strong>Connect the extension</strong> so the agent can work in your browser:
          </p>
          <ol>
            {CONNECT_EXTENSION_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <ConnectBrowser />
        </div>
      )}
      {serving && (
        <p class="serving">
          Serving this task: <strong>{nameOf(serving)}</strong>
          {serving.health === 'unhealthy' && <span class="error-text"> · unhealthy (reconnect it)</span>}
        </p>
      )}
      {state === 'several' && (
        <label class="picker">
          <span>Extension for this task</span>
          <select
            value={serving?.clientId ?? ''}
            disabled={!taskOpen || extensions.selecting.value !== null}
            onChange={(e) => void extensions.select(e.currentTarget.value)}
          >
            {extensions.connected.value.map((e) => (
              <option key={e.clientId} value={e.clientId}>
                {nameOf(e)}
                {e.health === 'unhealthy' ? ' (unhealthy)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p class="error-text">
          {error.code}: {error.message}
        </p>
      )}
    </section>
  );
}
