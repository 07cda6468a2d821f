import type { ConnectionModel } from '../models/connection-model.ts';
import type { ExtensionModel } from '../models/extension-model.ts';
import type { ExtensionSituation } from '../text/error-words.ts';

/** The server link and the browser extension, each with its own state, at every width. */
export function ConnectionIndicator({
  connection,
  extensions,
  situation,
  onShowExtensions,
}: {
  connection: ConnectionModel;
  extensions: ExtensionModel;
  situation: ExtensionSituation;
  onShowExtensions: () => void;
}) {
  const status = connection.status.value;
  const count = extensions.connected.value.length;
  const loading = extensions.viewState.value === 'loading';
  const ext = loading
    ? 'checking'
    : situation === 'connected'
      ? 'connected'
      : situation === 'disconnected'
        ? 'disconnected'
        : 'none';
  const extLabel = {
    checking: 'checking…',
    connected: count > 1 ? `${count} connected` : 'connected',
    disconnected: 'not connected',
    none: 'not installed',
  }[ext];
  return (
    <div class="conns">
      <div class={`conn conn-${status}`} role="status" aria-live="polite" data-testid="connection" data-status={status}>
        <span class="conn-dot" aria-hidden="true">
          {status === 'connected' ? '✓' : status === 'offline' ? '✕' : '…'}
        </span>
        <span>
          <span class="conn-what">Server</span>
          <span class="conn-state">: {connection.label}</span>
        </span>
      </div>
      <button
        type="button"
        class={`conn conn-ext ext-${ext}`}
        data-testid="extension-status"
        data-state={ext}
        title="Show the browser extensions"
        onClick={onShowExtensions}
      >
        <span class="conn-dot" aria-hidden="true">
          {ext === 'connected' ? '✓' : ext === 'checking' ? '…' : '✕'}
        </span>
        <span>
          <span class="conn-what">
            <span class="long">Extension</span>
            <span class="short">Ext.</span>
          </span>
          <span class="conn-state">: {extLabel}</span>
        </span>
      </button>
    </div>
  );
}
