// The person's controls of a task beyond takeover/resume/stop: answering a held step,
// editing the task's scope, giving the task a secret, and "Show the tab". The orchestrator
// spreads these into its TaskControl; the frontend gateway dispatches the messages to them.
import type { ConfirmationDecision, FrontendEvent } from '../../transport/contracts/index.ts';
import { PROTOCOL_VERSION, rooms } from '../../transport/contracts/index.ts';
import type { RuntimeServices } from '../services/runtime-services.ts';
import { taskNotFound, type ControlResult } from '../services/task-control.ts';
import type { TaskSession } from './task-session.ts';

const unguarded: ControlResult = {
  ok: false,
  error: {
    code: 'UNAVAILABLE',
    message: 'this server runs tasks without the person guard (no scope, no confirmations)',
  },
};

/** Tasks whose secrets wait for the task's first message (a secret is given before the request that uses it). */
const EARLY_TASKS_MAX = 100;

export function createPersonControls(deps: {
  sessionFor(taskId: string): Promise<TaskSession | undefined>;
  services: Pick<RuntimeServices, 'nsp' | 'clock' | 'registry' | 'log'>;
}) {
  /** Secrets given to a task id that has no task yet (memory only, applied when its session is built). */
  const early = new Map<string, Map<string, string>>();
  const withGuard = async (
    taskId: string,
    run: (
      session: TaskSession & { guard: NonNullable<TaskSession['guard']> },
    ) => ControlResult | Promise<ControlResult>,
  ) => {
    const session = await deps.sessionFor(taskId);
    if (!session) return taskNotFound(taskId);
    if (!session.guard) return unguarded;
    return run(session as TaskSession & { guard: NonNullable<TaskSession['guard']> });
  };
  return {
    confirmationAnswer: (
      taskId: string,
      requestId: string,
      decision: ConfirmationDecision,
      by: 'web' | 'overlay' = 'web',
    ) =>
      withGuard(taskId, (s) => {
        deps.services.log({ event: 'confirmation_answer', taskId, requestId, decision, by });
        return s.guard.answer(requestId, decision, by);
      }),
    setTaskScope: (taskId: string, sites: readonly string[]) => withGuard(taskId, (s) => s.guard.setScope(sites)),
    async setTaskSecret(taskId: string, name: string, value: string): Promise<ControlResult> {
      const session = await deps.sessionFor(taskId);
      if (session?.guard) return session.guard.setSecret(name, value);
      if (session) return unguarded;
      // No task yet: kept until its first message builds the session (adopt).
      if (!early.has(taskId) && early.size >= EARLY_TASKS_MAX) early.delete(early.keys().next().value!);
      early.set(taskId, (early.get(taskId) ?? new Map()).set(name, value));
      return { ok: true, data: { name, placeholder: `{{secret:${name}}}`, pending: true } };
    },
    /** A new session takes the secrets given before its task existed. */
    adopt(session: TaskSession): void {
      const given = early.get(session.taskId);
      early.delete(session.taskId);
      if (given && session.guard) for (const [name, value] of given) session.guard.setSecret(name, value);
    },
    /** The scope and the steps waiting for a yes, for a client that (re)subscribes. */
    personReplay: (taskId: string, session: TaskSession | undefined): FrontendEvent[] => session?.guard?.replay() ?? [],
    async showTaskTab(taskId: string): Promise<ControlResult> {
      const session = await deps.sessionFor(taskId);
      if (!session) return taskNotFound(taskId);
      const { clientId, tabId } = session.browser;
      if (!clientId || tabId === null)
        return { ok: false, error: { code: 'TASK_TAB_CLOSED', message: 'the task has no tab yet' } };
      if (!deps.services.registry.isOnline(clientId))
        return {
          ok: false,
          error: { code: 'PLUGIN_OFFLINE', message: 'the browser that runs this task is not connected' },
        };
      deps.services.nsp.to(rooms.client(clientId)).emit('plugin_message', {
        v: PROTOCOL_VERSION,
        type: 'show_tab',
        taskId,
        clientId,
        tabId,
        timestamp: deps.services.clock.now(),
      });
      deps.services.log({ event: 'show_tab', taskId, clientId, tabId });
      return { ok: true, data: { tabId } };
    },
  };
}
