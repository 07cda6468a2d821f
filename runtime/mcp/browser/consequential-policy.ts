// MCP's side of the person's guard: browser-shell and template runs have no person in the loop to say yes,
// so a consequential step (a purchase/pay/transfer/send/delete button, typing into a password,
// payment or one-time-code field, a file upload or download; runtime/agent/consequential-step.ts)
// is refused with CONFIRMATION_REQUIRED, unless the server's operator opted its MCP clients in
// (MIMO_MCP_CONSEQUENTIAL_STEPS=allow). Where MCP may navigate is the URL policy's (seed 004),
// so no scope applies here.
import type { ErrorValue } from '../../../machines/index.ts';
import type { PageElement } from '../../llm/llm-types.ts';
import { heldStepOf } from '../../agent/consequential-step.ts';
import { errorValue } from '../../../machines/index.ts';
import type { TaskScope } from '../../agent/task-scope.ts';

export type McpConsequentialPolicy = 'refuse' | 'allow';

export function readMcpConsequentialPolicy(
  value: string | undefined,
): { ok: true; policy: McpConsequentialPolicy } | { ok: false; error: string } {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'refuse') return { ok: true, policy: 'refuse' };
  if (text === 'allow') return { ok: true, policy: 'allow' };
  return { ok: false, error: `MIMO_MCP_CONSEQUENTIAL_STEPS must be "refuse" or "allow", got "${value}"` };
}

/** Every http(s) site: MCP's navigation is bounded by the URL policy instead. */
const urlPolicyScope: TaskScope = {
  sites: [],
  covers: () => true,
  noteRequest: () => false,
  replace: () => ({ rejected: [] }),
  allow: () => {},
};

/** CONFIRMATION_REQUIRED for a consequential step under `refuse`; null when it may go ahead. */
export function mcpStepRefusal(
  policy: McpConsequentialPolicy,
  call: {
    toolName: string;
    args: Record<string, unknown>;
    pageUrl: string | undefined;
    elements: readonly PageElement[];
  },
): ErrorValue | null {
  if (policy === 'allow') return null;
  const step = heldStepOf({ ...call, scope: urlPolicyScope });
  if (!step) return null;
  return errorValue(
    'CONFIRMATION_REQUIRED',
    `not done (CONFIRMATION_REQUIRED): ${step.reason}; MCP clients may take such steps only when the server allows it (MIMO_MCP_CONSEQUENTIAL_STEPS=allow)`,
    { retryable: false, details: { step } },
  );
}
