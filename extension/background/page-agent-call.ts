// The call into the page agent that runs inside the page (serialised by executeScript, or sent
// as source over CDP by page-agent-cdp.ts): it must not reference anything outside itself.

export const PAGE_AGENT_FILE = 'page-agent.js';

export type CallOutcome = { missing: true } | { error: string } | { value: unknown };

export function callAgent(op: string, args: unknown): CallOutcome {
  const agent = (globalThis as unknown as { __mimoPageAgent?: { run(op: string, args: unknown): unknown } })
    .__mimoPageAgent;
  if (!agent) return { missing: true };
  try {
    return { value: agent.run(op, args) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
