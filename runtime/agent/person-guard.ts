// One task's person guard: its scope, its confirmation gate and its secrets, and the
// one check every tool call of the model goes through before a browser action is sent
// (browser-tools.ts calls `check`). Control flow comes from the person only: the scope grows from
// their messages and answers, never from a page; a held step goes ahead only with their yes.
import type { ConfirmationDecision, FrontendEvent, HeldStep } from '../../transport/contracts/index.ts';
import type { ControlResult } from '../services/task-control.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { PageElement } from '../llm/llm-types.ts';
import { createConfirmationGate, type ConfirmationPolicy } from './confirmation-gate.ts';
import { heldStepOf } from './consequential-step.ts';
import { createTaskSecrets } from './secret-placeholders.ts';
import { createTaskScope, type ScopeSite } from './task-scope.ts';
import type { ErrorValue } from '../../machines/index.ts';

export interface PersonGuardDeps {
  taskId: string;
  events: FrontendEventSink;
  policy: ConfirmationPolicy;
  /** Registers a secret value with the redaction registry. */
  registerSecret?(value: string): void;
  note?(text: string): void;
  initialScope?: readonly ScopeSite[];
  /** The steps waiting changed (sent to the page overlay). */
  waitingChanged?(waiting: Array<{ requestId: string; step: HeldStep }>): void;
}

export interface GuardedCall {
  toolName: string;
  args: Record<string, unknown>;
  toolCallId: string;
  signal?: AbortSignal | undefined;
  pageUrl: string | undefined;
  elements: readonly PageElement[];
}

export function createPersonGuard(deps: PersonGuardDeps) {
  const scope = createTaskScope(deps.initialScope);
  const secrets = createTaskSecrets(deps.registerSecret);
  const scopeEvent = () =>
    deps.events.toTask(deps.taskId, { type: 'taskScope', sites: scope.sites.map((s) => ({ ...s })) });
  const gate = createConfirmationGate({
    taskId: deps.taskId,
    events: deps.events,
    scope,
    policy: deps.policy,
    ...(deps.note ? { note: deps.note } : {}),
    scopeChanged: scopeEvent,
    ...(deps.waitingChanged ? { waitingChanged: deps.waitingChanged } : {}),
  });

  return {
    scope,
    secrets,
    /** Null: the call may go ahead; an error value: it must not (denied, refused by policy, stopped). */
    async check(call: GuardedCall): Promise<ErrorValue | null> {
      const step = heldStepOf({
        toolName: call.toolName,
        args: call.args,
        pageUrl: call.pageUrl,
        elements: call.elements,
        scope,
      });
      if (!step) return null;
      const verdict = await gate.confirm(step, call.toolCallId, call.signal);
      return verdict.ok ? null : verdict.error;
    },
    /** A message of the person: the sites it names join the scope. */
    noteRequest(text: string): void {
      if (scope.noteRequest(text)) scopeEvent();
    },
    setScope(sites: readonly string[]): ControlResult {
      const { rejected } = scope.replace(sites);
      if (rejected.length)
        return {
          ok: false,
          error: {
            code: 'BAD_REQUEST',
            message: `not a site: ${rejected.join(', ')} (write a domain such as example.com, host:port, or a URL)`,
          },
        };
      scopeEvent();
      return { ok: true, data: { sites: scope.sites.map((s) => s.site) } };
    },
    setSecret(name: string, value: string): ControlResult {
      secrets.set(name, value);
      return { ok: true, data: { name, placeholder: `{{secret:${name}}}` } };
    },
    answer: (requestId: string, decision: ConfirmationDecision, by: 'web' | 'overlay' = 'web') =>
      gate.answer(requestId, decision, by),
    /** What a late subscriber needs: the scope and every step still waiting. */
    replay: (): FrontendEvent[] => [
      deps.events.envelope({ type: 'taskScope', sites: scope.sites.map((s) => ({ ...s })) }, deps.taskId),
      ...gate.waiting(),
    ],
    denyAll: () => gate.denyAll(),
  };
}

export type PersonGuard = ReturnType<typeof createPersonGuard>;
