// The person's yes for one task. A held step (consequential-step.ts) becomes a
// `confirmationRequested` frontend event; the turn waits, inside the task actor tree (the turn is
// the task actor's child and its AbortSignal ends the wait on STOP), for `confirmation_answer`
// from the web UI, the page overlay, a test or a script. No timer: a held step waits until the
// person answers or stops the task. Deny comes back to the model as a tool error. "Always for
// this site" widens the scope (off-scope steps) and lets later held steps on that site go ahead.
// Policy: `ask` (agent tasks), `refuse` (MCP by default: CONFIRMATION_REQUIRED), `allow` (an MCP
// client that opted in).
import { nanoid } from 'nanoid';
import { errorValue, type ErrorValue } from '../../machines/index.ts';
import type { ConfirmationDecision, FrontendEvent, HeldStep } from '../../transport/contracts/index.ts';
import type { ControlResult } from '../services/task-control.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { TaskScope } from './task-scope.ts';

export type ConfirmationPolicy = 'ask' | 'refuse' | 'allow';

export interface ConfirmationGateDeps {
  taskId: string;
  events: FrontendEventSink;
  scope: TaskScope;
  policy: ConfirmationPolicy;
  /** A line in the task's conversation (the request and its answer stay in the history). */
  note?(text: string): void;
  /** The scope changed ("Always for this site"). */
  scopeChanged?(): void;
  /** The steps waiting changed (the page overlay shows them too). */
  waitingChanged?(waiting: Array<{ requestId: string; step: HeldStep }>): void;
}

type Verdict = { ok: true; decision: ConfirmationDecision | 'policy' } | { ok: false; error: ErrorValue };

interface Pending {
  envelope: FrontendEvent;
  step: HeldStep;
  settle(decision: ConfirmationDecision, by: 'web' | 'overlay' | 'stop'): void;
}

const describe = (step: HeldStep) =>
  `${step.toolName.replace(/^browser_/, '')}${step.element ? ` "${step.element}"` : ''}${step.value ? ` with "${step.value}"` : ''} on ${step.site}${step.url && step.kind.startsWith('off_scope') ? ` (${step.url})` : ''}`;

export function createConfirmationGate(deps: ConfirmationGateDeps) {
  const pending = new Map<string, Pending>();
  /** Sites the person said "Always for this site" for. */
  const alwaysSites = new Set<string>();
  const list = () => [...pending.entries()].map(([requestId, p]) => ({ requestId, step: p.step }));

  async function confirm(step: HeldStep, toolCallId: string, signal?: AbortSignal): Promise<Verdict> {
    if (alwaysSites.has(step.site)) return { ok: true, decision: 'allow_site' };
    if (deps.policy === 'allow') return { ok: true, decision: 'policy' };
    if (deps.policy === 'refuse') {
      return {
        ok: false,
        error: errorValue(
          'CONFIRMATION_REQUIRED',
          `not done: ${describe(step)} needs the person's confirmation (${step.reason}), and this client has not opted in to such steps`,
          { retryable: false, details: { step } },
        ),
      };
    }
    if (signal?.aborted)
      return { ok: false, error: errorValue('TASK_STOPPED', 'the task was stopped', { retryable: false }) };
    const requestId = `cfm-${nanoid(12)}`;
    const envelope = deps.events.toTask(deps.taskId, { type: 'confirmationRequested', requestId, toolCallId, step });
    deps.note?.(`Needs you: confirm ${describe(step)}: ${step.reason}.`);
    const decision = await new Promise<ConfirmationDecision>((resolve) => {
      const onAbort = () => entry.settle('deny', 'stop');
      const entry: Pending = {
        envelope,
        step,
        settle(answer, by) {
          if (!pending.delete(requestId)) return;
          signal?.removeEventListener('abort', onAbort);
          deps.events.toTask(deps.taskId, { type: 'confirmationResolved', requestId, decision: answer, by });
          deps.waitingChanged?.(list());
          resolve(answer);
        },
      };
      pending.set(requestId, entry);
      deps.waitingChanged?.(list());
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (signal?.aborted)
      return {
        ok: false,
        error: errorValue('TASK_STOPPED', 'the task was stopped while a step waited for confirmation', {
          retryable: false,
        }),
      };
    if (decision === 'deny') {
      deps.note?.(`Denied by the person: ${describe(step)}.`);
      return {
        ok: false,
        error: errorValue(
          'CONFIRMATION_DENIED',
          `the person denied this step: ${describe(step)}. Do not try it another way; ask the person what to do instead.`,
          { retryable: false },
        ),
      };
    }
    if (decision === 'allow_site') {
      alwaysSites.add(step.site);
      if (step.url && step.kind.startsWith('off_scope')) deps.scope.allow(step.url);
      deps.scopeChanged?.();
    }
    deps.note?.(
      `Allowed by the person${decision === 'allow_site' ? ` (always for ${step.site})` : ' (once)'}: ${describe(step)}.`,
    );
    return { ok: true, decision };
  }

  return {
    confirm,
    /** The person's answer (frontend_message confirmation_answer, or the overlay). */
    answer(requestId: string, decision: ConfirmationDecision, by: 'web' | 'overlay' = 'web'): ControlResult {
      const entry = pending.get(requestId);
      if (!entry)
        return {
          ok: false,
          error: {
            code: 'NOT_FOUND',
            message: `no step waits for confirmation ${requestId} (answered already, or the task moved on)`,
          },
        };
      entry.settle(decision, by);
      return { ok: true, data: { requestId, decision } };
    },
    /** The requests still waiting (replayed to a client that subscribes late). */
    waiting: (): FrontendEvent[] => [...pending.values()].map((p) => p.envelope),
    /** The task stopped: every waiting step is denied. */
    denyAll(): void {
      for (const entry of [...pending.values()]) entry.settle('deny', 'stop');
    },
  };
}

export type ConfirmationGate = ReturnType<typeof createConfirmationGate>;
