// The server's configuration from environment variables (README "Configuration"); pure, so
// tests pass their own env. Bad values are reported, not silently replaced.
import { resolve } from 'node:path';
import { parseContextTokens } from './agent/context-budget.ts';
import { canonicalHost } from './http/request-gate.ts';

export interface MimoConfig {
  port: number;
  host: string;
  dataDir: string;
  artifactDir: string;
  /**
   * The shared secret every client presents. createServer uses it as given: undefined means no
   * token (tests that build their own config). startMimo fills it in: MIMO_TOKEN, else the one
   * kept in `<dataDir>/access-token` (made on first start); MIMO_TOKEN=off leaves it undefined.
   */
  token: string | undefined;
  /** Where the token came from: MIMO_TOKEN (`env`), `off`, or `unset` (startMimo makes/reads the file). */
  tokenSource?: 'env' | 'off' | 'unset';
  /** MIMO_ALLOWED_HOSTS: host names the server answers to besides localhost, 127.0.0.1, [::1] and MIMO_PUBLIC_URL's host. */
  allowedHosts?: string[];
  /** MIMO_EXTENSION_IDS: extension ids allowed besides the pinned DEFAULT_EXTENSION_ID. */
  extensionIds?: string[];
  corsOrigins: string[];
  snapshotDebug: boolean;
  publicBaseUrl: string;
  /** HMAC secret for artifact upload tokens; random per process unless MIMO_ARTIFACT_SECRET is set. */
  artifactSecret: string | undefined;
  /** MIMO_CONTEXT_TOKENS: o200k tokens of one LLM step's page context (page + tabs); default 4000. */
  contextTokens?: number;
}

export type ConfigResult = { ok: true; config: MimoConfig } | { ok: false; errors: string[] };

const truthy = (value: string | undefined) => value === '1' || value?.toLowerCase() === 'true';

export function readConfig(env: Record<string, string | undefined>, cwd = process.cwd()): ConfigResult {
  const errors: string[] = [];
  const portText = env.MIMO_PORT ?? '6006';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    errors.push(`MIMO_PORT must be a port number (0-65535), got "${portText}"`);
  const host = env.MIMO_HOST ?? '127.0.0.1';
  const corsOrigins = (env.MIMO_CORS_ORIGIN ?? 'http://localhost:3000,http://127.0.0.1:3000')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin === '*') {
      errors.push(
        'MIMO_CORS_ORIGIN "*" is not supported: any web page could then drive your browser. List the origins of your web UI instead.',
      );
      continue;
    }
    try {
      const url = new URL(origin);
      if (url.origin !== origin)
        errors.push(`MIMO_CORS_ORIGIN entry "${origin}" is not an origin (expected e.g. ${url.origin})`);
    } catch {
      errors.push(`MIMO_CORS_ORIGIN entry "${origin}" is not a URL origin`);
    }
  }
  const publicBaseUrl = (env.MIMO_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicBaseUrl))
    errors.push(`MIMO_PUBLIC_URL must be an http(s) URL, got "${publicBaseUrl}"`);
  const allowedHosts = (env.MIMO_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (const host of allowedHosts)
    if (!canonicalHost(host))
      errors.push(
        `MIMO_ALLOWED_HOSTS entry "${host}" is not a host name or address (e.g. mimo.lan, 192.168.1.20, [fe80::1])`,
      );
  const extensionIds = (env.MIMO_EXTENSION_IDS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (const id of extensionIds)
    if (!/^[a-p]{32}$/.test(id))
      errors.push(
        `MIMO_EXTENSION_IDS entry "${id}" is not an extension id (32 letters a-p, as chrome://extensions shows it)`,
      );
  const tokenText = env.MIMO_TOKEN ?? '';
  const tokenSource = tokenText === '' ? 'unset' : tokenText.toLowerCase() === 'off' ? 'off' : 'env';
  if (tokenSource === 'env' && !/^[\x21-\x7e]{8,512}$/.test(tokenText)) {
    errors.push('MIMO_TOKEN must be 8-512 printable ASCII characters without spaces (or "off" to run without one)');
  }
  const contextTokens = parseContextTokens(env.MIMO_CONTEXT_TOKENS);
  if (!contextTokens.ok) errors.push(contextTokens.error);
  if (errors.length > 0 || !contextTokens.ok) return { ok: false, errors };
  return {
    ok: true,
    config: {
      port,
      host,
      dataDir: resolve(cwd, env.MIMO_DATA_DIR ?? './data'),
      artifactDir: resolve(cwd, env.MIMO_ARTIFACT_DIR ?? './uploads/artifacts'),
      token: tokenSource === 'env' ? tokenText : undefined,
      tokenSource,
      allowedHosts,
      extensionIds,
      corsOrigins,
      snapshotDebug: truthy(env.MIMO_SNAPSHOT_DEBUG),
      publicBaseUrl,
      artifactSecret: env.MIMO_ARTIFACT_SECRET || undefined,
      contextTokens: contextTokens.value,
    },
  };
}
