import type { ProtocolError } from '../../../transport/contracts/error-codes.ts';
import { useState } from 'preact/hooks';
import { errorWords, type ExtensionSituation } from '../text/error-words.ts';

export interface ErrorActions {
  situation: ExtensionSituation;
  /** Sends the turn's message again (a failed task reopens with it); absent when nothing can be retried. */
  retry?: () => void;
  /** Shows the browser & extension panel (picker, connect steps). */
  showExtensions: () => void;
  /** Several extensions are connected: one can be picked. */
  canSelectBrowser: boolean;
}

const OPTIONS_HELP =
  'In the browser the agent uses: click the puzzle icon (or the Mimo icon) in the toolbar, then Mimo › Options; or open chrome://extensions, find Mimo and choose Details › Extension options. Check the server address and token there.';

/** An error in words, with the code and message kept for the curious, and its actions. */
export function ErrorDetail({ error, actions }: { error: ProtocolError; actions: ErrorActions }) {
  const words = errorWords(error, actions.situation);
  const [help, setHelp] = useState(false);
  return (
    <div class="error-detail" data-testid="error-detail" data-code={error.code}>
      <p class="error-title">
        <span aria-hidden="true">⚠ </span>
        {words.title}
      </p>
      {words.hint && <p class="error-hint">{words.hint}</p>}
      <div class="error-actions">
        {words.actions.map((a) => {
          switch (a) {
            case 'retry':
              return actions.retry ? (
                <button key={a} type="button" class="btn btn-small" onClick={actions.retry}>
                  Retry
                </button>
              ) : null;
            case 'extension-options':
              return (
                <button key={a} type="button" class="btn btn-small" aria-expanded={help} onClick={() => setHelp(!help)}>
                  Open extension options
                </button>
              );
            case 'select-browser':
              return actions.canSelectBrowser ? (
                <button key={a} type="button" class="btn btn-small" onClick={actions.showExtensions}>
                  Select another browser
                </button>
              ) : null;
            case 'connect-extension':
              return (
                <button key={a} type="button" class="btn btn-small" onClick={actions.showExtensions}>
                  How to connect the extension
                </button>
              );
          }
        })}
        <details class="error-raw">
          <summary>{error.code}</summary>
          <p>{error.message}</p>
        </details>
      </div>
      {help && (
        <p class="error-hint" data-testid="options-help">
          {OPTIONS_HELP}
        </p>
      )}
    </div>
  );
}
