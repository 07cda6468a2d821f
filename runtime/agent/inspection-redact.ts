// An event payload made fit for the web's Machines tab: JSON-safe, bounded (depth, keys, string
// length), and with anything that may hold what the person typed or a credential replaced by
// "[redacted]" (ARCHITECTURE: typed secrets are redacted in inspection).
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|credential|^text$|^value$|content|data|apikey|api_key/i;
const MAX_DEPTH = 4;
const MAX_KEYS = 20;
const MAX_STRING = 160;

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING - 1)}…` : value;
  if (typeof value !== 'object') return undefined; // functions, symbols, bigint
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((item) => copy(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: copy(value.message, depth + 1) };
  // Actor references and other class instances: only their id, never their internals.
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' ? `[${proto?.constructor?.name ?? 'object'} ${id}]` : `[${proto?.constructor?.name ?? 'object'}]`;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_KEYS)) {
    if (SECRET_KEY.test(key) && item !== undefined && item !== null && item !== '') {
      out[key] = '[redacted]';
      continue;
    }
    const copied = copy(item, depth + 1);
    if (copied !== undefined) out[key] = copied;
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
