// The person's side of a task's guard: the steps that wait for their yes ("Needs you:
// confirm", with Allow once / Always for this site / Deny), the task's scope (shown and editable)
// and "Show the tab". Plain signals over the socket link; the server stays authoritative: a
// request disappears when its confirmationResolved event arrives, the scope when taskScope says.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type {
  ConfirmationDecision,
  ConfirmationRequestedEvent,
  ConfirmationResolvedEvent,
  HeldStep,
  TaskScopeEvent,
} from '../../../transport/contracts/frontend-event.ts';
import type { AckError, AckResult } from '../io/ack.ts';

export interface WaitingStep {
  requestId: string;
  step: HeldStep;
}

export interface PersonGuardModel {
  waiting: ReadonlySignal<WaitingStep[]>;
  /** The first step waiting: the one the panel shows. */
  current: ReadonlySignal<WaitingStep | null>;
  scope: ReadonlySignal<Array<{ site: string; from: 'request' | 'person' }>>;
  pending: ReadonlySignal<string | null>;
  error: ReadonlySignal<AckError | null>;
  applyRequested(event: ConfirmationRequestedEvent): void;
  applyResolved(event: ConfirmationResolvedEvent): void;
  applyScope(event: TaskScopeEvent): void;
  reset(): void;
  answer(requestId: string, decision: ConfirmationDecision): Promise<AckResult | null>;
  /** The whole list, as the person typed it (one site per line or comma). */
  setScope(text: string): Promise<AckResult | null>;
  showTab(): Promise<AckResult | null>;
  /** A credential for this task, used as `{{secret:name}}` (the model never sees the value). */
  setSecret(name: string, value: string): Promise<AckResult | null>;
  /** The names given so far (never the values). */
  secretNames: ReadonlySignal<string[]>;
}

export interface PersonGuardSend {
  answer(requestId: string, decision: ConfirmationDecision): Promise<AckResult>;
  setScope(sites: string[]): Promise<AckResult>;
  showTab(): Promise<AckResult>;
  setSecret(name: string, value: string): Promise<AckResult>;
}

/** The step in words, as the panel and the conversation show it. */
export function stepWords(step: HeldStep): string {
  const verb: Record<string, string> = {
    browser_open: 'Open',
    browser_click: 'Click',
    browser_type: 'Type into',
    browser_press: 'Press Enter on',
    browser_dblclick: 'Double-click',
    browser_check: 'Tick',
    browser_select: 'Choose in',
  };
  const what =
    step.toolName === 'browser_open' ? (step.url ?? step.site) : step.element ? `"${step.element}"` : 'this page';
  const value = step.value ? ` the value "${step.value}"` : '';
  return `${verb[step.toolName] ?? step.toolName} ${what}${value ? ` with${value}` : ''} on ${step.site}`;
}

export function createPersonGuardModel(send: PersonGuardSend): PersonGuardModel {
  const waiting = signal<WaitingStep[]>([]);
  const scope = signal<Array<{ site: string; from: 'request' | 'person' }>>([]);
  const pending = signal<string | null>(null);
  const error = signal<AckError | null>(null);
  const secretNames = signal<string[]>([]);

  async function act(name: string, run: () => Promise<AckResult>): Promise<AckResult | null> {
    if (pending.value !== null) return null;
    pending.value = name;
    error.value = null;
    const result = await run();
    pending.value = null;
    if (!result.ok) error.value = result.error;
    return result;
  }

  return {
    waiting,
    current: computed(() => waiting.value[0] ?? null),
    scope,
    pending,
    error,
    applyRequested(event) {
      if (waiting.value.some((w) => w.requestId === event.requestId)) return;
      waiting.value = [...waiting.value, { requestId: event.requestId, step: event.step }];
    },
    applyResolved(event) {
      waiting.value = waiting.value.filter((w) => w.requestId !== event.requestId);
    },
    applyScope(event) {
      scope.value = event.sites;
    },
    reset() {
      waiting.value = [];
      scope.value = [];
      pending.value = null;
      error.value = null;
      secretNames.value = [];
    },
    answer: (requestId, decision) => act(decision, () => send.answer(requestId, decision)),
    setScope: (text) =>
      act('scope', () =>
        send.setScope(
          text
            .split(/[\n,]+/)
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ),
    showTab: () => act('show', () => send.showTab()),
    secretNames,
    async setSecret(name, value) {
      const result = await act('secret', () => send.setSecret(name.trim(), value));
      if (result?.ok && !secretNames.value.includes(name.trim()))
        secretNames.value = [...secretNames.value, name.trim()];
      return result;
    },
  };
}
