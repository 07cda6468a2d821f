// An event payload made fit for the web's Machines tab: JSON-safe, bounded (depth, keys, string
// length), and with anything that may hold what the person typed or a credential replaced by
// "[redacted]" (ARCHITECTURE: typed secrets are redacted in inspection).
const SECRET_KEY =
  /pass(word)?|secret|token|authorization|cookie|credential|^text$|^value$|content|data|apikey|api_key/i;
const MAX_DEPTH = 4;
const MAX_KEYS = 20;
const MAX_STRING = 160;

const bounded = (text: string) => (text.length > MAX_STRING ? `${text.slice(0, MAX_STRING - 1)}…` : text);

/** Actor references and other class instances: only their id, never their internals. */
function instanceLabel(value: object): string | undefined {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string'
    ? `[${proto?.constructor?.name ?? 'object'} ${id}]`
    : `[${proto?.constructor?.name ?? 'object'}]`;
}

const isSecret = (key: string, item: unknown) =>
  SECRET_KEY.test(key) && item !== undefined && item !== null && item !== '';

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return bounded(value);
  if (typeof value !== 'object') return undefined; // functions, symbols, bigint
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => copy(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: copy(value.message, depth + 1) };
  const label = instanceLabel(value);
  if (label !== undefined) return label;
  const out: Record<string, unknown> = {};
  let seen = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (seen++ >= MAX_KEYS) break;
    const item = (value as Record<string, unknown>)[key];
    if (isSecret(key, item)) {
      out[key] = '[redacted]';
      continue;
    }
    const copied = copy(item, depth + 1);
    if (copied !== undefined) out[key] = copied;
  }
  return out;
}

/**
 * The scalar fields of an object (ids, counters, statuses: what `redactedPayload` would keep as
 * a string, number, boolean or null), without copying the nested values it leaves out.
 */
export function redactedScalars(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let seen = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (seen++ >= MAX_KEYS) break;
    const item = value[key];
    if (isSecret(key, item)) out[key] = '[redacted]';
    else if (item === null || typeof item === 'number' || typeof item === 'boolean') out[key] = item;
    else if (typeof item === 'string') out[key] = bounded(item);
    else if (typeof item === 'object' && !Array.isArray(item) && !(item instanceof Error)) {
      const label = instanceLabel(item);
      if (label !== undefined) out[key] = label;
    }
  }
  return out;
}

/** The event's fields (without `type`), redacted and bounded. */
export function redactedPayload(event: unknown): Record<string, unknown> {
  const copied = copy(event, 0);
  if (typeof copied !== 'object' || copied === null || Array.isArray(copied)) return {};
  const { type: _type, ...rest } = copied as Record<string, unknown>;
  return rest;
}
