// Seed 000 §2.1 rules 1 and 4 on the task actor: one browser action in flight per task, and
// none dispatched during takeover. A turn asks the gate before every action; during takeover
// it waits for RESUME (the action already in flight may finish meanwhile).
import { waitFor, type Actor } from 'xstate';
import { actionInFlightOf, canDispatchAction, taskEnded, type taskMachine } from '../../machines/index.ts';

export class TaskEndedError extends Error {
  readonly code = 'TASK_STOPPED';
  constructor(message = 'the task was stopped') {
    super(message);
  }
}

export interface GateTicket {
  /** True when the task went through a takeover while this action waited. */
  resumedAfterTakeover: boolean;
}

export function createActionGate(actor: Actor<typeof taskMachine>) {
  return {
    async acquire(actionId: string, signal?: AbortSignal): Promise<GateTicket> {
      let resumedAfterTakeover = false;
      for (;;) {
        if (signal?.aborted) throw new TaskEndedError();
        if (taskEnded(actor.getSnapshot())) throw new TaskEndedError();
        actor.send({ type: 'ACTION_STARTED', actionId });
        if (actionInFlightOf(actor.getSnapshot()) === actionId) return { resumedAfterTakeover };
        const snapshot = actor.getSnapshot();
        if (snapshot.matches({ running: 'takeover' })) resumedAfterTakeover = true;
        try {
          await waitFor(actor, (s) => canDispatchAction(s) || taskEnded(s), signal ? { signal } : {});
        } catch {
          throw new TaskEndedError();
        }
      }
    },
    release(actionId: string): void {
      actor.send({ type: 'ACTION_SETTLED', actionId });
    },
  };
}

export type ActionGate = ReturnType<typeof createActionGate>;

/** A gate for callers without a task actor (MCP sessions): the scheduler alone orders their actions. */
export function createOpenGate(): ActionGate {
  return {
    async acquire() {
      return { resumedAfterTakeover: false };
    },
    release() {},
  };
}
