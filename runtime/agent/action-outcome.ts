// How a settled browser action reads to the turn: the seed 001 §4.1 hint on a missed ack, the
// code of a refused debugger attach, and the small result fields kept in the task's history.
import { errorValue, type ErrorValue } from '../../machines/index.ts';

/** Seed 001 §4.1: no ack within T_ack means the plugin is unusable; say what the user can do. */
export function ackTimeoutError(clientId: string, cause: ErrorValue): ErrorValue {
  return errorValue(
    'PLUGIN_TIMEOUT_ACK',
    `The browser extension ${clientId} did not answer (${cause.message}). Nothing more is sent to it in this turn: reconnect it (reload the extension) or select another extension, then ask again.`,
    { retryable: true, details: { clientId } },
  );
}

/** A refused chrome.debugger attach is CDP_PERMISSION_DENIED; a browser without the API stays CDP_UNAVAILABLE. */
export function attachErrorOf(error: ErrorValue): ErrorValue {
  if (error.code === 'CDP_PERMISSION_DENIED') return error;
  if (error.code === 'CDP_UNAVAILABLE' && !/not available in this browser/i.test(error.message)) {
    return errorValue('CDP_PERMISSION_DENIED', `the browser refused the debugger attach: ${error.message}`, {
      retryable: false,
      ...(error.details ? { details: error.details } : {}),
    });
  }
  return error;
}

const SMALL_RESULT_KEYS = [
  'artifactId',
  'url',
  'width',
  'height',
  'tabId',
  'windowId',
  'groupId',
  'title',
  'clicked',
  'typed',
  'strategy',
  'status',
  'attached',
  'stopped',
  'truncated',
  'warnings',
];

/** Small fields only (ids, urls, flags): page text and element lists stay out of the history. */
export function compactResult(result: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!result) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of SMALL_RESULT_KEYS) if (result[key] !== undefined) out[key] = result[key];
  return Object.keys(out).length ? out : undefined;
}
