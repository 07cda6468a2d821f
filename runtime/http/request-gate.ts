// The one gate in front of every way into the server (HTTP routes, the static web UI, artifacts,
// /mcp, Engine.IO polling and WebSocket upgrades, the Stately bridge). Pure: headers in, a
// verdict out. It checks, in this order:
//  1. Host: the request must name us by an allowed host (DNS rebinding: a page on evil.example
//     whose name now resolves to 127.0.0.1 still sends `Host: evil.example`). Allowed: localhost,
//     127.0.0.1, [::1], the host of MIMO_PUBLIC_URL, MIMO_HOST when it is a concrete address,
//     MIMO_ALLOWED_HOSTS. The port is not compared (proxies). A missing, malformed or
//     userinfo-carrying Host is refused.
//  2. Origin: absent (non-browser clients; but a browser's cross-site no-cors request, which
//     carries no Origin, is recognised by its Fetch Metadata and refused), the server's own origin
//     (the Origin names the very host:port the request was sent to, which step 1 allowed),
//     MIMO_CORS_ORIGIN entries, or `chrome-extension://<id>` for the pinned extension id and
//     MIMO_EXTENSION_IDS. `null` and everything else is refused.
// The token is not the gate's business: it is checked where each surface reads it (header,
// Socket.IO auth payload), after the gate.
import { DEFAULT_EXTENSION_ID, extensionOrigin } from '../../transport/contracts/extension-identity.ts';

export interface GateInput {
  method: string;
  /** The Host header (HTTP/1.1), or `:authority`; undefined when missing. */
  host: string | undefined;
  origin: string | undefined;
  secFetchSite?: string | undefined;
  secFetchMode?: string | undefined;
  secFetchDest?: string | undefined;
}

export type OriginKind = 'none' | 'own' | 'listed' | 'extension';

export type GateVerdict =
  | { ok: true; origin: OriginKind }
  | { ok: false; status: 400 | 403 | 421; code: 'BAD_REQUEST' | 'FORBIDDEN'; reason: GateReason; message: string };

export type GateReason =
  'host_missing' | 'host_malformed' | 'host_not_allowed' | 'origin_not_allowed' | 'origin_null' | 'cross_site_request';

export interface RequestGateOptions {
  /** Extra host names or addresses (MIMO_ALLOWED_HOSTS); canonicalised like the Host header. */
  allowedHosts?: readonly string[];
  /** MIMO_PUBLIC_URL: its host is allowed, its origin too. */
  publicBaseUrl?: string | undefined;
  /** MIMO_HOST: allowed when it is a concrete address (not 0.0.0.0 / ::). */
  bindHost?: string | undefined;
  /** MIMO_CORS_ORIGIN entries (exact origins). */
  corsOrigins?: readonly string[];
  /** Extension ids besides DEFAULT_EXTENSION_ID (MIMO_EXTENSION_IDS). */
  extensionIds?: readonly string[];
}

export interface RequestGate {
  check(input: GateInput): GateVerdict;
  /** Every origin a browser may legitimately send from another origin (for CORS answers). */
  readonly crossOrigins: readonly string[];
  readonly hosts: readonly string[];
  isExtensionOrigin(origin: string | undefined): boolean;
}

export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/;
const EXTENSION_ID = /^[a-p]{32}$/;
const EXTENSION_ORIGIN = /^chrome-extension:\/\/([a-p]{32})$/;

/**
 * A Host header value (or a bare host name) -> canonical `{ hostname, port }`: lower case, IPv4 in
 * dotted decimal (127.1 -> 127.0.0.1), IPv6 compressed in brackets, one trailing dot dropped.
 * Null for anything that is not exactly `host[:port]` (userinfo, paths, spaces, percent-escapes).
 */
export function canonicalHost(value: string): { hostname: string; port: string } | null {
  if (value.length === 0 || value.length > 300 || !HOST_SYNTAX.test(value)) return null;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  let hostname = url.hostname;
  if (hostname.endsWith('.') && !hostname.startsWith('[')) hostname = hostname.slice(0, -1);
  if (hostname === '' || hostname.endsWith('.')) return null;
  const explicitPort = /:(\d{1,5})$/.exec(value)?.[1];
  if (explicitPort !== undefined && Number(explicitPort) > 65_535) return null;
  return { hostname, port: explicitPort === undefined ? '' : String(Number(explicitPort)) };
}

/** `scheme://host[:port]` with the default port of the scheme dropped, or null when it is not one. */
function parseWebOrigin(origin: string): { scheme: 'http' | 'https'; hostname: string; port: string } | null {
  const match = /^(https?):\/\/([^/?#@\s]+)$/.exec(origin);
  if (!match) return null;
  const scheme = match[1] as 'http' | 'https';
  const host = canonicalHost(match[2]!);
  if (!host) return null;
  const defaultPort = scheme === 'http' ? '80' : '443';
  return { scheme, hostname: host.hostname, port: host.port === defaultPort ? '' : host.port };
}

function serializeOrigin(o: { scheme: string; hostname: string; port: string }): string {
  return `${o.scheme}://${o.hostname}${o.port ? `:${o.port}` : ''}`;
}

function refuse(status: 400 | 403 | 421, reason: GateReason, message: string): GateVerdict {
  return { ok: false, status, code: status === 400 ? 'BAD_REQUEST' : 'FORBIDDEN', reason, message };
}

export function createRequestGate(options: RequestGateOptions = {}): RequestGate {
  const hosts = new Set<string>(LOOPBACK_HOSTS);
  const addHost = (value: string) => {
    const host = canonicalHost(value);
    if (host) hosts.add(host.hostname);
  };
  for (const host of options.allowedHosts ?? []) addHost(host);
  const listedOrigins = new Set<string>();
  if (options.publicBaseUrl) {
    try {
      const url = new URL(options.publicBaseUrl);
      addHost(url.host);
      const parsed = parseWebOrigin(url.origin);
      if (parsed) listedOrigins.add(serializeOrigin(parsed));
    } catch {
      // config.ts reports a bad MIMO_PUBLIC_URL.
    }
  }
  const bind = options.bindHost;
  if (bind && bind !== '0.0.0.0' && bind !== '::' && bind !== '[::]')
    addHost(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  for (const origin of options.corsOrigins ?? []) {
    const parsed = parseWebOrigin(origin.replace(/\/+$/, ''));
    if (parsed) listedOrigins.add(serializeOrigin(parsed));
  }
  const extensionIds = new Set<string>([
    DEFAULT_EXTENSION_ID,
    ...(options.extensionIds ?? []).filter((id) => EXTENSION_ID.test(id)),
  ]);

  function isExtensionOrigin(origin: string | undefined): boolean {
    const id = origin === undefined ? undefined : EXTENSION_ORIGIN.exec(origin)?.[1];
    return id !== undefined && extensionIds.has(id);
  }

  function check(input: GateInput): GateVerdict {
    if (input.host === undefined || input.host === '')
      return refuse(400, 'host_missing', 'the request has no Host header');
    const host = canonicalHost(input.host);
    if (!host) return refuse(400, 'host_malformed', 'the Host header is not host[:port]');
    if (!hosts.has(host.hostname)) {
      return refuse(
        421,
        'host_not_allowed',
        `this server does not answer to host "${host.hostname}" (add it to MIMO_ALLOWED_HOSTS if it is yours)`,
      );
    }

    const origin = input.origin;
    if (origin === undefined) {
      // Browsers omit Origin on no-cors GETs (<script>, <link>, fetch no-cors) from other sites;
      // Fetch Metadata still says where they came from. Passed: top-level navigations (a link to
      // the UI) and images (a screenshot <img> whose artifact URL names localhost while the UI runs
      // on 127.0.0.1 is "cross-site"; an image stays opaque to the page that loads it, and GETs
      // change nothing here).
      const site = input.secFetchSite?.toLowerCase();
      const mode = input.secFetchMode?.toLowerCase();
      const image =
        input.secFetchDest?.toLowerCase() === 'image' && (input.method === 'GET' || input.method === 'HEAD');
      if ((site === 'cross-site' || site === 'same-site') && mode !== 'navigate' && !image) {
        return refuse(403, 'cross_site_request', 'cross-site requests are refused');
      }
      return { ok: true, origin: 'none' };
    }
    if (origin === 'null')
      return refuse(403, 'origin_null', 'Origin "null" (a sandboxed frame, file: or data: page) is refused');
    if (isExtensionOrigin(origin)) return { ok: true, origin: 'extension' };
    const parsed = parseWebOrigin(origin);
    if (parsed) {
      // We serve plain HTTP; an https front (a proxy) is named by MIMO_PUBLIC_URL, listed below.
      const ownPort = host.port === '80' ? '' : host.port;
      if (parsed.scheme === 'http' && parsed.hostname === host.hostname && parsed.port === ownPort)
        return { ok: true, origin: 'own' };
      if (listedOrigins.has(serializeOrigin(parsed))) return { ok: true, origin: 'listed' };
    }
    return refuse(
      403,
      'origin_not_allowed',
      `origin ${JSON.stringify(origin.slice(0, 200))} is not allowed (MIMO_CORS_ORIGIN lists the allowed ones)`,
    );
  }

  return {
    check,
    crossOrigins: [...listedOrigins, ...[...extensionIds].map(extensionOrigin)],
    hosts: [...hosts],
    isExtensionOrigin,
  };
}

/** The gate's inputs from Node's IncomingMessage-style headers (first value of repeated ones). */
export function gateInputOf(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): GateInput {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? (value.length === 1 ? value[0] : '\u0000multiple') : value;
  };
  return {
    method: method ?? 'GET',
    host: one('host'),
    origin: one('origin'),
    secFetchSite: one('sec-fetch-site'),
    secFetchMode: one('sec-fetch-mode'),
    secFetchDest: one('sec-fetch-dest'),
  };
}

/** The refusal as the seed 001 envelope. */
export function gateRefusalBody(verdict: Extract<GateVerdict, { ok: false }>): string {
  return JSON.stringify({
    ok: false,
    error: { code: verdict.code, message: verdict.message, details: { reason: verdict.reason } },
  });
}
