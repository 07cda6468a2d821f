// The server's configuration from environment variables (README "Configuration"); pure, so
// tests pass their own env. Bad values are reported, not silently replaced.
import { resolve } from 'node:path';
import { parseContextTokens } from './agent/context-budget.ts';

export interface MimoConfig {
  port: number;
  host: string;
  dataDir: string;
  artifactDir: string;
  token: string | undefined;
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
  if (!/^\d+$/.test(portText) || port > 65_535) errors.push(`MIMO_PORT must be a port number (0-65535), got "${portText}"`);
  const host = env.MIMO_HOST ?? '127.0.0.1';
  const corsOrigins = (env.MIMO_CORS_ORIGIN ?? 'http://localhost:3000,http://127.0.0.1:3000')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin === '*') continue;
    try {
      const url = new URL(origin);
      if (url.origin !== origin) errors.push(`MIMO_CORS_ORIGIN entry "${origin}" is not an origin (expected e.g. ${url.origin})`);
    } catch {
      errors.push(`MIMO_CORS_ORIGIN entry "${origin}" is not a URL origin`);
    }
  }
  const publicBaseUrl = (env.MIMO_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicBaseUrl)) errors.push(`MIMO_PUBLIC_URL must be an http(s) URL, got "${publicBaseUrl}"`);
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
      token: env.MIMO_TOKEN ? env.MIMO_TOKEN : undefined,
      corsOrigins,
      snapshotDebug: truthy(env.MIMO_SNAPSHOT_DEBUG),
      publicBaseUrl,
      artifactSecret: env.MIMO_ARTIFACT_SECRET || undefined,
      contextTokens: contextTokens.value,
    },
  };
}
