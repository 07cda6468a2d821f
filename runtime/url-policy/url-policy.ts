// The one URL policy for everything that navigates (browser-shell `open`, template runs, the
// agent's task_start): http(s) only (about:blank when allowed), no credentials in the URL, the
// allowlist when the policy file has one, and no loopback / private / CGNAT / link-local / ULA /
// multicast / unspecified / metadata / IPv4-mapped address, whether written as a literal in any
// notation (the WHATWG URL parser canonicalises decimal, octal, hex and short IPv4) or reached
// through DNS (every A/AAAA answer is checked). `checkFinal` applies the same rules to the URL the
// extension reports after redirects.
import { formatIp, parseIp, type IpAddress } from './ip-address.ts';
import { classifyAddress, isLiftable, type AddressCategory } from './ip-ranges.ts';
import type { UrlPolicyConfig } from './policy-config.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS lookup for a host name: every A and AAAA answer. Rejects or returns [] when unknown. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type UrlBlockReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'invalid_host'
  | 'not_allowlisted'
  | 'blocked_address'
  | 'blocked_name'
  | 'dns_failed';

export interface UrlBlockedError {
  code: 'URL_BLOCKED';
  message: string;
  retryable: false;
  details: {
    reason: UrlBlockReason;
    stage: 'request' | 'final';
    host?: string;
    address?: string;
    category?: AddressCategory;
    range?: string;
  };
}

export type UrlVerdict = { ok: true } | { ok: false; error: UrlBlockedError };

export interface UrlPolicy {
  /** Before navigating: a `UrlCheck` for runtime/agent/task-browser.ts. */
  check(url: string): Promise<UrlVerdict>;
  /** After navigating: the URL the extension reports (redirects followed). */
  checkFinal(url: string): Promise<UrlVerdict>;
  readonly config: UrlPolicyConfig;
}

export interface UrlPolicyDeps {
  config: UrlPolicyConfig;
  resolve: HostResolver;
}

/** Names that mean this machine or a cloud metadata service whatever DNS says. */
const LOOPBACK_NAMES = /^(?:localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;
/** The loopback names the browser resolves itself (never through DNS). */
const BROWSER_LOOPBACK_NAMES = /^localhost$|\.localhost$/;
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

function blocked(
  stage: 'request' | 'final',
  reason: UrlBlockReason,
  message: string,
  extra: Omit<UrlBlockedError['details'], 'reason' | 'stage'> = {},
): UrlVerdict {
  return { ok: false, error: { code: 'URL_BLOCKED', message, retryable: false, details: { reason, stage, ...extra } } };
}

function hostAllowlisted(host: string, config: UrlPolicyConfig): boolean {
  if (config.allowHosts === null && config.allowHostSuffixes === null) return true;
  if (config.allowHosts?.includes(host)) return true;
  for (const suffix of config.allowHostSuffixes ?? []) {
    if (suffix.startsWith('.') ? host.endsWith(suffix) : host === suffix || host.endsWith(`.${suffix}`)) return true;
  }
  return false;
}

export function createUrlPolicy(deps: UrlPolicyDeps): UrlPolicy {
  const { config } = deps;
  const lifted = new Set<string>(config.allowPrivateNetworks);

  function addressVerdict(stage: 'request' | 'final', host: string, ip: IpAddress, viaDns: boolean): UrlVerdict {
    const found = classifyAddress(ip);
    if (!found) return { ok: true };
    if (isLiftable(found.category) && lifted.has(found.category)) return { ok: true };
    const address = formatIp(ip);
    const how = viaDns ? `${host} resolves to ${address}, ` : `${address} is `;
    const lift = isLiftable(found.category)
      ? ` (the policy file can lift this with "allow_private_networks": ["${found.category}"])`
      : '';
    return blocked(
      stage,
      'blocked_address',
      `${how}a ${found.category.replace('_', '-')} address (${found.cidr}${found.via ? ` via ${found.via}` : ''}); navigation there is blocked${lift}`,
      {
        host,
        address,
        category: found.category,
        range: found.cidr,
      },
    );
  }

  async function evaluate(url: string, stage: 'request' | 'final'): Promise<UrlVerdict> {
    if (typeof url !== 'string' || url.length === 0 || url.length > 8192)
      return blocked(stage, 'invalid_url', 'the URL must be a non-empty string of at most 8192 characters');
    if (url.trim().toLowerCase() === 'about:blank') {
      return config.allowAboutBlank
        ? { ok: true }
        : blocked(stage, 'scheme', 'about:blank is not allowed by the URL policy');
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return blocked(stage, 'invalid_url', `"${url.slice(0, 200)}" is not an absolute URL`);
    }
    const scheme = parsed.protocol.slice(0, -1);
    if (!(config.allowSchemes as string[]).includes(scheme)) {
      return blocked(
        stage,
        'scheme',
        `only ${config.allowSchemes.join('/')} URLs${config.allowAboutBlank ? ' and about:blank' : ''} can be opened, not ${scheme}:`,
      );
    }
    if (parsed.username !== '' || parsed.password !== '')
      return blocked(stage, 'credentials', 'URLs with a user name or password (user@host) are not allowed');

    // The parser has already canonicalised IPv4 notations and IPv6; one trailing dot is the root.
    let host = parsed.hostname.toLowerCase();
    if (host.endsWith('.') && !host.endsWith('..')) host = host.slice(0, -1);
    const literal = parseIp(host);
    const hostForList = literal?.family === 6 ? host.replace(/^\[|\]$/g, '') : host;
    if (!hostAllowlisted(hostForList, config)) {
      return blocked(stage, 'not_allowlisted', `${hostForList} is not on the URL policy's allowlist`, {
        host: hostForList,
      });
    }
    if (literal) return addressVerdict(stage, hostForList, literal, false);

    const labels = host.split('.');
    if (host.length > 253 || labels.some((label) => !LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1]!)) {
      return blocked(stage, 'invalid_host', `"${host}" is not a valid host name`, { host });
    }
    if (LOOPBACK_NAMES.test(host) && !lifted.has('loopback')) {
      return blocked(
        stage,
        'blocked_name',
        `${host} names this machine (loopback); navigation there is blocked (the policy file can lift this with "allow_private_networks": ["loopback"])`,
        { host, category: 'loopback' },
      );
    }
    if (METADATA_NAMES.has(host))
      return blocked(stage, 'blocked_name', `${host} is a cloud metadata service; navigation there is blocked`, {
        host,
        category: 'metadata',
      });
    // Chromium sends localhost and every *.localhost name to loopback itself, without DNS (RFC 6761):
    // with loopback allowed, so are they (a DNS lookup would refuse names only the browser knows).
    if (BROWSER_LOOPBACK_NAMES.test(host)) return { ok: true };

    let answers: ResolvedAddress[];
    try {
      answers = await deps.resolve(host);
    } catch (error) {
      return blocked(
        stage,
        'dns_failed',
        `${host} could not be resolved (${(error as NodeJS.ErrnoException)?.code ?? String(error)}); unresolvable hosts are blocked`,
        { host },
      );
    }
    if (!Array.isArray(answers) || answers.length === 0)
      return blocked(stage, 'dns_failed', `${host} has no A/AAAA record; unresolvable hosts are blocked`, { host });
    for (const answer of answers) {
      const ip = parseIp(String(answer?.address ?? ''));
      if (!ip) return blocked(stage, 'dns_failed', `${host} resolved to something that is not an IP address`, { host });
      const verdict = addressVerdict(stage, host, ip, true);
      if (!verdict.ok) return verdict;
    }
    return { ok: true };
  }

  return {
    config,
    check: (url) => evaluate(url, 'request'),
    checkFinal: async (url) => {
      const verdict = await evaluate(url, 'final');
      if (verdict.ok) return verdict;
      return {
        ok: false,
        error: {
          ...verdict.error,
          message: `the page ended up at a blocked URL after redirects: ${verdict.error.message}`,
        },
      };
    },
  };
}
