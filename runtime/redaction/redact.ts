// One redaction for everything that leaves the live process as a record: inspection events (the
// web UI's machine view, the Stately bridge), session recordings, logs and the task store.
// Two rules, applied together:
//  - by name: a field whose key names a secret (password, passwd, pwd, secret, token, api key,
//    authorization, cookie, credential(s), otp, pin) keeps its shape but not its value;
//  - by value: strings registered as secrets (the password given to login_keep_session, text
//    typed into a password field) are replaced wherever they appear, inside longer strings too.
// The output is plain JSON data: cycles and class instances (actor refs) are cut, depth is
// bounded, so it is also the serializer for things that were never meant to be JSON.

export const REDACTED = '[redacted]';

const SECRET_KEY =
  /^(?:.*[-_])?(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[-_]?key|apikey|authorization|cookie|set[-_]?cookie|credentials?|otp|pin)$/i;
const SECRET_KEY_CAMEL = /(?:Password|Passwd|Secret|Token|ApiKey|Credentials?)$/;

/** Whether a field of this name holds a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) || SECRET_KEY_CAMEL.test(key);
}

/** Secrets shorter than this are replaced only where they stand alone (see SecretRegistry.add). */
export const SHORT_SECRET = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface SecretRegistry {
  /**
   * Remembers a secret value. From 4 characters on it is replaced wherever it appears, inside
   * longer strings too; a shorter one (a PIN like "42") only where it stands alone: the
   * whole string, or a run not touching a letter, digit or one of `_-/:@`, nor a dot between it
   * and a letter or digit (so "42" goes in "the pin is 42." but ids, URLs, "v4.2" and "420" keep
   * theirs). Empty values are ignored.
   */
  add(value: string): void;
  /** Replaces every registered secret inside the text. */
  redactText(text: string): string;
  /** The registered values, longest first (a stream redactor holds back their beginnings). */
  values(): readonly string[];
  readonly size: number;
}

export function createSecretRegistry(options: { keep?: number } = {}): SecretRegistry {
  const keep = options.keep ?? 256;
  const secrets: string[] = [];
  const standalone = new Map<string, RegExp>();
  return {
    add(value) {
      if (typeof value !== 'string' || value.length === 0 || secrets.includes(value)) return;
      secrets.push(value);
      if (value.length < SHORT_SECRET)
        standalone.set(
          value,
          new RegExp(
            `(?<![\\p{L}\\p{N}_\\-/:@]|[\\p{L}\\p{N}][.])${escapeRegExp(value)}(?![\\p{L}\\p{N}_\\-/:@]|[.][\\p{L}\\p{N}])`,
            'gu',
          ),
        );
      // Longest first, so a secret that contains another is replaced whole.
      secrets.sort((a, b) => b.length - a.length);
      if (secrets.length > keep) for (const dropped of secrets.splice(keep)) standalone.delete(dropped);
    },
    redactText(text) {
      let out = text;
      for (const secret of secrets) {
        if (!out.includes(secret)) continue;
        const alone = standalone.get(secret);
        out = alone ? out.replace(alone, REDACTED) : out.split(secret).join(REDACTED);
      }
      return out;
    },
    values: () => secrets,
    get size() {
      return secrets.length;
    },
  };
}

export interface RedactOptions {
  secrets?: SecretRegistry | undefined;
  /** Deeper values become '[depth]' (default 12). */
  maxDepth?: number;
}

/** A redacted, JSON-safe copy (never mutates its input). */
export function redactDeep(value: unknown, options: RedactOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? 12;
  const seen = new WeakSet<object>();
  const text = (s: string) => (options.secrets ? options.secrets.redactText(s) : s);
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
    if (typeof v === 'bigint') return v.toString();
    if (typeof v !== 'object') return undefined; // functions, symbols, undefined
    if (seen.has(v)) return '[circular]';
    if (depth >= maxDepth) return '[depth]';
    seen.add(v);
    try {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function' && !(v instanceof Date)) return walk(toJSON.call(v), depth);
      if (v instanceof Date) return v.toISOString();
      if (v instanceof Error)
        return walk(
          {
            name: v.name,
            message: v.message,
            ...(v.stack ? { stack: v.stack } : {}),
            ...((v as { code?: unknown }).code !== undefined ? { code: (v as { code?: unknown }).code } : {}),
          },
          depth,
        );
      if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1) ?? null);
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        // Class instances (actor refs, sockets): only their id, when they have one.
        const id = (v as { sessionId?: unknown; id?: unknown }).sessionId ?? (v as { id?: unknown }).id;
        return typeof id === 'string' ? { ref: id } : `[${proto?.constructor?.name ?? 'object'}]`;
      }
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) {
        if (isSecretKey(key) && item !== undefined && item !== null && item !== '') {
          out[key] = REDACTED;
          continue;
        }
        const walked = walk(item, depth + 1);
        if (walked !== undefined) out[key] = walked;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, 0);
}

/** The password fields of a DOM index (by clickId and by xpath), so typing into them is known to be secret. */
export function passwordTargetsOf(
  elements: ReadonlyArray<{ tag?: unknown; type?: unknown; clickId?: unknown; xpath?: unknown }>,
): { clickIds: Set<number>; xpaths: Set<string> } {
  const clickIds = new Set<number>();
  const xpaths = new Set<string>();
  for (const e of elements) {
    if (String(e.tag).toLowerCase() !== 'input' || String(e.type).toLowerCase() !== 'password') continue;
    if (typeof e.clickId === 'number') clickIds.add(e.clickId);
    if (typeof e.xpath === 'string') xpaths.add(e.xpath);
  }
  return { clickIds, xpaths };
}

/** A log function whose entries are redacted first. */
export function redactingLog<T extends object>(log: (entry: T) => void, secrets?: SecretRegistry): (entry: T) => void {
  return (entry) => log(redactDeep(entry, { secrets }) as T);
}

/** The password fields of a task's tabs, from every DOM index it read (per tab), so typing into them is known to be secret. */
export function createPasswordFields() {
  const byTab = new Map<number, { clickIds: Set<number>; xpaths: Set<string> }>();
  return {
    noteIndex(tabId: number, elements: ReadonlyArray<Record<string, unknown>>): void {
      byTab.set(tabId, passwordTargetsOf(elements));
    },
    /** Whether a browser_type's target (clickId or xpath on its tab) is a password field. */
    isTarget(params: Record<string, unknown>): boolean {
      const fields = typeof params.tabId === 'number' ? byTab.get(params.tabId) : undefined;
      if (!fields) return false;
      return (
        (typeof params.clickId === 'number' && fields.clickIds.has(params.clickId)) ||
        (typeof params.xpath === 'string' && fields.xpaths.has(params.xpath))
      );
    },
  };
}

/**
 * Only the registered secret values replaced, nothing else changed (no key rule, no depth limit):
 * for data that must stay restorable, such as persisted machine snapshots. JSON data in, the same
 * shape out; the input itself when there is nothing to replace.
 */
export function redactSecretValues<T>(value: T, secrets: SecretRegistry): T {
  if (secrets.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return secrets.redactText(v);
    if (Array.isArray(v)) return v.map(walk);
    if (
      v !== null &&
      typeof v === 'object' &&
      (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)
    ) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) out[key] = walk(item);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
