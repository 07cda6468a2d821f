// The action actor under test: one actionMachine actor on a SimulatedClock, with a fake
// transport behind `sendFrame`, started on one action (START), as a task actor starts each one.
import { createActor, SimulatedClock } from 'xstate';
import {
  actionMachine,
  type ActionEvent,
  type ActionInput,
  type ActionOutput,
  type SendActionInput,
} from '../action.machine.ts';

/**
 * What the fake transport does with each frame `sendFrame` writes, from inside the action (as
 * the runtime's transport does): nothing (written, the plugin has not answered yet), or send the
 * actor an event at once (DISPATCH_FAILED when the frame cannot be written, an ACK or a RESULT
 * from a plugin that answers at once).
 */
export type Transport = (frame: SendActionInput, attempt: number) => ActionEvent | undefined;

export function start(overrides: Partial<ActionInput> = {}, transport: Transport = () => undefined) {
  const clock = new SimulatedClock();
  const frames: SendActionInput[] = [];
  const ignored: Array<{ actionId: string; disposition: string }> = [];
  const machine = actionMachine.provide({
    actions: {
      sendFrame: ({ self }, frame) => {
        frames.push(frame);
        const answer = transport(frame, frames.length);
        if (answer) self.send(answer);
      },
      reportIgnoredResult: (_, params) => void ignored.push(params),
    },
  });
  const input: ActionInput = {
    actionId: 'act-001',
    actionName: 'browser_screenshot',
    params: { tabId: 123 },
    taskId: 'task-1',
    clientId: 'plugin-abc',
    ...overrides,
  };
  const actor = createActor(machine, { clock }).start();
  actor.send({ type: 'START', action: input });
  /** The frames written so far (one per attempt). */
  const sends = () => frames as unknown as Array<Record<string, unknown>>;
  /** The state while the action runs; once it settled (the actor is idle again), its status. */
  const value = () => {
    const snapshot = actor.getSnapshot();
    return snapshot.value === 'idle' && snapshot.context.last ? snapshot.context.last.status : snapshot.value;
  };
  /** The output of the settled action. */
  const output = () => actor.getSnapshot().context.last as ActionOutput;
  return { actor, clock, sends, value, output, ignored };
}

export const retryable = { code: 'PLUGIN_TIMEOUT_EXEC', message: 'slow', retryable: true };
export const notRetryable = { code: 'INVALID_TARGET', message: 'no such element', retryable: false };
