// Errors in words, each with the action that helps (Retry, the extension's options, another
// browser, the URL policy). Pure: the components render it and wire the actions.
import type { ProtocolError } from '../../../transport/contracts/error-codes.ts';

export type ErrorAction = 'retry' | 'extension-options' | 'select-browser' | 'connect-extension';

/** What the web knows about the extensions when it words PLUGIN_OFFLINE. */
export type ExtensionSituation = 'none-ever' | 'disconnected' | 'connected';

export interface ErrorWords {
  title: string;
  hint?: string;
  actions: ErrorAction[];
}

// "showing error page": what chrome.scripting says about a tab that shows Chrome's network error page.
const NETWORK_RE =
  /showing error page|net::ERR_|ERR_CONNECTION|ERR_NAME_NOT_RESOLVED|ERR_ADDRESS_UNREACHABLE|ERR_INTERNET_DISCONNECTED|ECONNREFUSED|ENOTFOUND|chrome-error:/i;

const policyHint: Record<string, string> = {
  scheme: 'Only http and https addresses can be opened.',
  credentials: 'Addresses with a user name or password in them are refused.',
  not_allowlisted:
    "This host is not on the server's allowlist: add it to allow_hosts in the file MIMO_URL_POLICY names.",
  blocked_address:
    "It points at a private or loopback address, which the server's URL policy refuses (allow_private in MIMO_URL_POLICY).",
  blocked_name: "This host name is refused by the server's URL policy (MIMO_URL_POLICY).",
  dns_failed: 'The host name could not be resolved: check the spelling.',
  invalid_url: 'The address is not a valid URL.',
  invalid_host: 'The host name is not valid.',
};

export function isNetworkError(error: Pick<ProtocolError, 'message'>): boolean {
  return NETWORK_RE.test(error.message);
}

export function errorWords(error: ProtocolError, situation: ExtensionSituation = 'connected'): ErrorWords {
  const retry: ErrorAction[] = error.retryable ? ['retry'] : [];
  if (isNetworkError(error))
    return {
      title: 'The site is unreachable (the connection failed).',
      hint: 'Check the address, or try again when the site is up.',
      actions: ['retry'],
    };
  switch (error.code) {
    case 'PLUGIN_OFFLINE':
      if (situation === 'none-ever') {
        return {
          title: 'No browser extension is connected, so the agent cannot open pages.',
          hint: 'Install the Mimo extension and point it at this server.',
          actions: ['connect-extension', 'retry'],
        };
      }
      if (situation === 'disconnected') {
        return {
          title: 'Your browser extension is installed but not connected to this server.',
          hint: 'The browser may be closed, or its options point at another server address or token.',
          actions: ['extension-options', 'retry'],
        };
      }
      return {
        title: 'The extension serving this task went offline.',
        hint: 'Another connected browser can take over the task.',
        actions: ['select-browser', 'retry'],
      };
    case 'PLUGIN_TIMEOUT_ACK':
    case 'PLUGIN_TIMEOUT_EXEC':
      return {
        title: 'The browser did not answer in time.',
        hint: 'It may be busy or asleep; trying again usually works.',
        actions: ['retry', 'extension-options', 'select-browser'],
      };
    case 'PLUGIN_ERROR':
    case 'CDP_UNAVAILABLE':
    case 'CDP_PERMISSION_DENIED':
      return {
        title:
          error.code === 'CDP_PERMISSION_DENIED'
            ? 'The extension is not allowed to control this page.'
            : 'The extension could not do this in the page.',
        hint: 'Check the extension (its options show whether it is connected), or use another browser.',
        actions: [...retry, 'extension-options', 'select-browser'],
      };
    case 'URL_BLOCKED': {
      const reason = typeof error.details?.reason === 'string' ? error.details.reason : '';
      return {
        title: "This address is blocked by the server's URL policy.",
        hint: policyHint[reason] ?? 'Ask whoever runs the server to allow it in the URL policy (MIMO_URL_POLICY).',
        actions: [],
      };
    }
    case 'NAVIGATION_TIMEOUT':
      return { title: 'The page took too long to load.', hint: 'The site may be slow or down.', actions: ['retry'] };
    case 'TASK_TAB_CLOSED':
      return { title: "The task's tab was closed.", hint: 'Trying again opens a new one.', actions: ['retry'] };
    case 'PAGE_PREP_FAILED':
      return { title: 'The page could not be read (no screenshot, no text).', actions: ['retry'] };
    case 'ELEMENT_OUTSIDE_MODAL':
      return {
        title: 'A dialog on the page is in the way.',
        hint: 'The agent has to answer or close the dialog first.',
        actions: retry,
      };
    case 'INVALID_TARGET':
    case 'INVALID_TASK_TAB':
    case 'SCHEMA_VALIDATION_FAILED':
      return {
        title: 'The agent asked for something the page does not have.',
        hint: 'It usually corrects itself on the next step.',
        actions: retry,
      };
    case 'ARTIFACT_UPLOAD_FAILED':
      return { title: 'The screenshot could not be saved.', actions: retry };
    case 'READABILITY_TOO_LARGE':
      return { title: 'The page is too large to read in full.', actions: [] };
    case 'RATE_LIMITED':
      return { title: 'The language model is rate-limited right now.', actions: ['retry'] };
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return { title: 'Something failed on the server.', actions: retry.length ? retry : ['retry'] };
    default:
      return { title: error.message || error.code, actions: retry };
  }
}
