// The error value that crosses every boundary: `{ code, message, retryable?, details? }`.
// Promise actors may reject with anything; `toErrorValue` turns that into a plain,
// JSON-safe value so it can live in a context and survive getPersistedSnapshot().

export interface ErrorValue {
  code: string;
  message: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export function errorValue(
  code: string,
  message: string,
  extra: { retryable?: boolean; details?: Record<string, unknown> } = {},
): ErrorValue {
  const value: ErrorValue = { code, message };
  if (extra.retryable !== undefined) value.retryable = extra.retryable;
  if (extra.details !== undefined) value.details = extra.details;
  return value;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null;
}

/**
 * Normalises whatever an actor threw. An object with a string `code` keeps its code,
 * message, retryable flag and details; an Error or anything else becomes `fallbackCode`
 * with the best message available.
 */
export function toErrorValue(thrown: unknown, fallbackCode: string): ErrorValue {
  if (isRecord(thrown) && typeof thrown.code === 'string' && thrown.code !== '') {
    const message = typeof thrown.message === 'string' ? thrown.message : thrown.code;
    const extra: { retryable?: boolean; details?: Record<string, unknown> } = {};
    if (typeof thrown.retryable === 'boolean') extra.retryable = thrown.retryable;
    if (isRecord(thrown.details)) extra.details = { ...thrown.details };
    return errorValue(thrown.code, message, extra);
  }
  if (thrown instanceof Error) return errorValue(fallbackCode, thrown.message || fallbackCode);
  if (typeof thrown === 'string' && thrown !== '') return errorValue(fallbackCode, thrown);
  return errorValue(fallbackCode, 'unknown error');
}
