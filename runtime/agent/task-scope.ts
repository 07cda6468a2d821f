// A task's scope: the sites the person named in their own messages, each widened to
// its registrable domain (tldts, on the Public Suffix List), so that following links from
// mail.example.co.uk to login.example.co.uk stays in scope while example.com does not. Hosts
// without a registrable domain (localhost, IP addresses) are kept as they are, port included.
// Only the person's words grow the scope (a message, an edit in the web UI, "Always for this
// site"): nothing a page says can, which is what lets the runtime hold a step outside it.
import { getDomain, getHostname, parse } from 'tldts';

/** What one site of a scope matches: every host under a registrable domain, or one exact host[:port]. */
export interface ScopeSite {
  /** As shown and edited in the UI: `example.co.uk` or `127.0.0.1:4100`. */
  site: string;
  /** How it entered the scope. */
  from: 'request' | 'person';
}

/** A host (with its port for localhost / IP addresses) as its scope key, or null for a non-http(s) URL. */
export function siteOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return siteOfHost(parsed.hostname, parsed.port);
}

/** The scope key of a hostname: its registrable domain, or host[:port] when it has none. */
export function siteOfHost(hostname: string, port = ''): string {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const domain = getDomain(host);
  if (domain) return domain;
  return port ? `${host}:${port}` : host;
}

/** URLs, and bare host names ending in a public suffix, as the person wrote them. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
const HOST_IN_TEXT = /(?<![@\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})(?::(\d{2,5}))?(?![\w-]*@)/gi;
const LOCAL_IN_TEXT = /\b(localhost|127\.0\.0\.1|\[::1\])(?::(\d{2,5}))?\b/gi;

/** The sites a message of the person names (URLs, bare hosts like "bank.example.com", localhost:port). */
export function sitesNamedIn(text: string): string[] {
  const found = new Set<string>();
  const rest = text.replace(URL_IN_TEXT, (url) => {
    const site = siteOf(url.replace(/[.,;:!?]+$/, ''));
    if (site) found.add(site);
    return ' ';
  });
  for (const match of rest.matchAll(LOCAL_IN_TEXT)) found.add(siteOfHost(match[1]!, match[2] ?? ''));
  for (const match of rest.matchAll(HOST_IN_TEXT)) {
    const host = match[1]!;
    // Only a name under a known (ICANN) public suffix: "notes.txt" or "e.g" is not a site.
    if (!parse(host).isIcann || !getDomain(host)) continue;
    found.add(siteOfHost(host, match[2] ?? ''));
  }
  return [...found];
}

/** A site typed in the UI's scope editor ("example.com", "https://x.example.com/a", "localhost:4100"), normalised; null when it is not one. */
export function siteFromInput(input: string): string | null {
  const text = input.trim();
  if (!text) return null;
  if (/^https?:\/\//i.test(text)) return siteOf(text);
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{2,5}))?$/i.exec(text);
  if (local) return siteOfHost(local[1]!, local[2] ?? '');
  const host = getHostname(`http://${text}`);
  return host && parse(host).isIcann && getDomain(host) ? siteOfHost(host) : null;
}

export interface TaskScope {
  /** The sites in scope, in the order they were added. */
  readonly sites: readonly ScopeSite[];
  /** Is this URL within the scope? An empty scope (the person named no site yet) covers none: every site waits for a yes. */
  covers(url: string): boolean;
  /** Adds the sites the person named in a message; answers whether the scope changed. */
  noteRequest(text: string): boolean;
  /** The person's own edit: the whole list, replaced. Answers the sites it could not read. */
  replace(inputs: readonly string[]): { rejected: string[] };
  /** "Always for this site": the person widened the scope by one site. */
  allow(url: string): void;
}

export function createTaskScope(initial: readonly ScopeSite[] = []): TaskScope {
  let sites: ScopeSite[] = [...initial];
  const has = (site: string) => sites.some((s) => s.site === site);
  return {
    get sites() {
      return sites;
    },
    covers(url) {
      const site = siteOf(url);
      if (site === null) return false;
      return has(site);
    },
    noteRequest(text) {
      const before = sites.length;
      for (const site of sitesNamedIn(text)) if (!has(site)) sites.push({ site, from: 'request' });
      return sites.length !== before;
    },
    replace(inputs) {
      const rejected: string[] = [];
      const next: ScopeSite[] = [];
      for (const input of inputs) {
        const site = siteFromInput(input);
        if (!site) rejected.push(input);
        else if (!next.some((s) => s.site === site))
          next.push(sites.find((s) => s.site === site) ?? { site, from: 'person' });
      }
      if (rejected.length === 0) sites = next;
      return { rejected };
    },
    allow(url) {
      const site = siteOf(url);
      if (site && !has(site)) sites.push({ site, from: 'person' });
    },
  };
}
