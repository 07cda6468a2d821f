// validatePluginMessage(input): exactly validate(IncomingPluginMessageSchema, input,
// 'SCHEMA_VALIDATION_FAILED'), with a fast path for the message every browser action ends with.
// A v1 browser_action_result with status "success" or "error" whose every field is well formed
// is accepted by straight-line checks (no schema walk) and copied into the very value valibot
// would return (same keys, same order, unknown keys dropped, records copied without
// `__proto__` / `prototype` / `constructor`). Anything else, and anything the fast path is not
// sure of, goes to the full valibot check: errors are always valibot's, never the fast path's.
// The fast path knows the schema's fields by name; it disables itself when the schema's entries
// differ from what it knows (a test pins that it is enabled), so a schema change cannot slip past.
import { BrowserActionResultMessageSchema } from './action-result.ts';
import { isUlid, isUuid } from './ids.ts';
import { IncomingPluginMessageSchema, type IncomingPluginMessage } from './plugin.ts';
import { PROTOCOL_VERSION } from './protocol-version.ts';
import { validate, type ValidationResult } from './validate.ts';

export type PluginMessageValidation = ValidationResult<IncomingPluginMessage, 'SCHEMA_VALIDATION_FAILED'>;

/** The v1 result's fields in schema order, per status (what the fast path copies). */
const KNOWN_ENTRIES: Readonly<Record<string, readonly string[]>> = {
  success: ['v', 'type', 'actionId', 'taskId', 'clientId', 'timestamp', 'traceId', 'status', 'result'],
  partial: ['v', 'type', 'actionId', 'taskId', 'clientId', 'timestamp', 'traceId', 'status', 'result'],
  error: ['v', 'type', 'actionId', 'taskId', 'clientId', 'timestamp', 'traceId', 'status', 'error', 'result'],
};
const KNOWN_ERROR_ENTRIES = ['code', 'message', 'retryable', 'details'];

/** True when the schema still has exactly the fields this file was written against. */
function schemaMatches(): boolean {
  const options = (
    BrowserActionResultMessageSchema as unknown as {
      options: Array<{ entries: Record<string, { entries?: Record<string, unknown> }> }>;
    }
  ).options;
  if (options.length !== 3) return false;
  for (const option of options) {
    const status = (option.entries.status as unknown as { literal?: unknown }).literal;
    const known = typeof status === 'string' ? KNOWN_ENTRIES[status] : undefined;
    if (!known || Object.keys(option.entries).join() !== known.join()) return false;
    if (status === 'error' && Object.keys(option.entries.error?.entries ?? {}).join() !== KNOWN_ERROR_ENTRIES.join())
      return false;
  }
  return true;
}

/** Whether the fast path is in use (false: every message takes the full valibot check). */
export const pluginMessageFastPathEnabled = schemaMatches();

export function validatePluginMessage(input: unknown): PluginMessageValidation {
  if (pluginMessageFastPathEnabled) {
    let value: IncomingPluginMessage | null = null;
    try {
      value = fastActionResult(input);
    } catch {
      value = null; // a getter or a proxy: the full check reports it
    }
    if (value !== null) return { ok: true, value };
  }
  return validate(IncomingPluginMessageSchema, input, 'SCHEMA_VALIDATION_FAILED');
}

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const isTimestamp = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The valibot output of a well-formed v1 success/error result, or null (not sure: take the full
 * check). Presence is `key in input`, as v.object tests it; a present key holding undefined is
 * left to the full check. Exported for tests.
 */
export function fastActionResult(input: unknown): IncomingPluginMessage | null {
  if (!isObject(input)) return null;
  if (input.type !== 'browser_action_result' || input.v !== PROTOCOL_VERSION) return null;
  const { actionId, taskId, clientId, status } = input;
  if (!nonEmptyString(actionId) || !nonEmptyString(clientId)) return null;
  if (typeof taskId !== 'string' || !(isUlid(taskId) || isUuid(taskId))) return null;
  if (status !== 'success' && status !== 'error') return null;
  const out: Loose = { v: PROTOCOL_VERSION, type: 'browser_action_result', actionId, taskId, clientId };
  if ('timestamp' in input) {
    if (!isTimestamp(input.timestamp)) return null;
    out.timestamp = input.timestamp;
  }
  if ('traceId' in input) {
    if (typeof input.traceId !== 'string') return null;
    out.traceId = input.traceId;
  }
  out.status = status;
  if (status === 'error') {
    const error = 'error' in input ? copyError(input.error) : null;
    if (error === null) return null;
    out.error = error;
  }
  if ('result' in input) {
    const result = copyRecord(input.result);
    if (result === null) return null;
    out.result = result;
  }
  return out as IncomingPluginMessage;
}

function copyError(error: unknown): Loose | null {
  if (!isObject(error) || !nonEmptyString(error.code) || typeof error.message !== 'string') return null;
  const out: Loose = { code: error.code, message: error.message };
  if ('retryable' in error) {
    if (typeof error.retryable !== 'boolean') return null;
    out.retryable = error.retryable;
  }
  if ('details' in error) {
    const details = copyRecord(error.details);
    if (details === null) return null;
    out.details = details;
  }
  return out;
}

/** v.record(v.string(), v.unknown())'s output: own enumerable keys in for-in order, minus the three it skips. */
function copyRecord(record: unknown): Loose | null {
  if (!isObject(record)) return null;
  const out: Loose = {};
  for (const key in record) {
    if (
      !Object.prototype.hasOwnProperty.call(record, key) ||
      key === '__proto__' ||
      key === 'prototype' ||
      key === 'constructor'
    )
      continue;
    out[key] = record[key];
  }
  return out;
}

/** For tests: the full check alone, as the gateway did before the fast path. */
export function validatePluginMessageFully(input: unknown): PluginMessageValidation {
  return validate(IncomingPluginMessageSchema, input, 'SCHEMA_VALIDATION_FAILED');
}
