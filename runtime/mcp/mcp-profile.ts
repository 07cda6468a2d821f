// MIMO_MCP_PROFILE: "full" (default) or "minimal" (browser-shell only, ARCHITECTURE.md).
import type { McpProfile } from './mcp-routes.ts';

export function readMcpProfile(
  value: string | undefined,
): { ok: true; profile: McpProfile } | { ok: false; error: string } {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'full') return { ok: true, profile: 'full' };
  if (text === 'minimal') return { ok: true, profile: 'minimal' };
  return { ok: false, error: `MIMO_MCP_PROFILE must be "full" or "minimal", got "${value}"` };
}
