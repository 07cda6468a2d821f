// Chrome match patterns (`<scheme>://<host>[:<port>]<path>`, `<all_urls>`), used to recognise
// web UI pages: the manifest's externally_connectable.matches, the configured server origin and
// extra patterns from the options page. A pattern without a port matches any port, as Chrome's.

interface ParsedPattern {
  schemes: string[] | null;
  host: string;
  port: string | null;
  path: RegExp;
}

const ALL_URL_SCHEMES = ['http:', 'https:', 'file:', 'ftp:', 'ws:', 'wss:'];

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Parses a pattern; null when it is not a valid match pattern. */
export function parseMatchPattern(pattern: string): ParsedPattern | null {
  if (pattern === '<all_urls>') return { schemes: ALL_URL_SCHEMES, host: '*', port: null, path: /^.*$/ };
  const match = /^(\*|https?|file|ftp|wss?):\/\/([^/]*)(\/.*)$/.exec(pattern);
  if (!match) return null;
  const [, scheme, hostPort, path] = match as unknown as [string, string, string, string];
  const hostMatch = /^(\*|\*\.[^*:/]+|[^*:/]*)(?::(\*|\d+))?$/.exec(hostPort);
  if (!hostMatch) return null;
  const schemes = scheme === '*' ? ['http:', 'https:'] : [`${scheme}:`];
  return { schemes, host: hostMatch[1]!.toLowerCase(), port: hostMatch[2] ?? null, path: globToRegExp(path) };
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' || protocol === 'wss:' ? '443' : protocol === 'http:' || protocol === 'ws:' ? '80' : '';
}

export function matchesPattern(url: string, pattern: string): boolean {
  const parsed = parseMatchPattern(pattern);
  if (parsed === null) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (parsed.schemes !== null && !parsed.schemes.includes(target.protocol)) return false;
  const host = target.hostname.toLowerCase();
  if (parsed.host !== '*') {
    if (parsed.host.startsWith('*.')) {
      const base = parsed.host.slice(2);
      if (host !== base && !host.endsWith(`.${base}`)) return false;
    } else if (host !== parsed.host) {
      return false;
    }
  }
  if (parsed.port !== null && parsed.port !== '*') {
    if ((target.port || defaultPort(target.protocol)) !== parsed.port) return false;
  }
  return parsed.path.test(target.pathname + target.search);
}

export function matchesAnyPattern(url: string | undefined, patterns: readonly string[]): boolean {
  return url !== undefined && url !== '' && patterns.some((pattern) => matchesPattern(url, pattern));
}

/** `http://localhost:6006` -> `http://localhost:6006/*` (port-exact). */
export function originPattern(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `${parsed.protocol}//${parsed.host}/*`;
  } catch {
    return null;
  }
}

/**
 * Patterns of web UI pages: the manifest's externally_connectable.matches, the server origin
 * (it serves the web UI at `/`) and the user's extra patterns. Actions refuse such tabs and
 * only these origins get an answer on the page bridge.
 */
export function webUiPatterns(
  manifestMatches: readonly string[] | undefined,
  serverUrl: string,
  extra: readonly string[],
): string[] {
  const server = originPattern(serverUrl);
  return [...(manifestMatches ?? []), ...(server ? [server] : []), ...extra];
}
