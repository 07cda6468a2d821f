// Which Mimo the stdio bridge talks to: MIMO_URL (default http://127.0.0.1:$MIMO_PORT) with
// MIMO_TOKEN or the token kept in `<MIMO_DATA_DIR>/access-token`. A server that is not running is
// started in this process on the same settings (unless MIMO_MCP_NO_START=1), its log on stderr.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ACCESS_TOKEN_FILE } from '../../access-token.ts';

export interface McpTarget {
  url: string;
  token: string | undefined;
}

export type ProbeResult = { state: 'up' } | { state: 'down'; reason: string } | { state: 'refused'; status: number };

export async function readTarget(env: Record<string, string | undefined>, cwd = process.cwd()): Promise<McpTarget> {
  const url = env.MIMO_URL ?? `http://127.0.0.1:${env.MIMO_PORT ?? '6006'}`;
  if (env.MIMO_TOKEN && env.MIMO_TOKEN !== 'off') return { url, token: env.MIMO_TOKEN };
  if (env.MIMO_TOKEN === 'off') return { url, token: undefined };
  const path = join(resolve(cwd, env.MIMO_DATA_DIR ?? './data'), ACCESS_TOKEN_FILE);
  try {
    return { url, token: (await readFile(path, 'utf8')).trim() || undefined };
  } catch {
    return { url, token: undefined };
  }
}

/** Asks the server's API with the token: up, not listening, or answering with an error status. */
export async function probeTarget(target: McpTarget, fetchImpl: typeof fetch = fetch): Promise<ProbeResult> {
  try {
    const response = await fetchImpl(new URL('/api/task/list', target.url), {
      headers: target.token ? { Authorization: `Bearer ${target.token}` } : {},
      signal: AbortSignal.timeout(3000),
    });
    await response.body?.cancel();
    return response.ok ? { state: 'up' } : { state: 'refused', status: response.status };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { state: 'down', reason: cause?.code ?? (error instanceof Error ? error.message : String(error)) };
  }
}
