// The server's mirror of the extension's plugin-UI actor (ARCHITECTURE: pluginUiMachine runs in
// the content script and is mirrored by the server): the same definition, fed the same events the
// overlay gets (task status, actions starting and settling, the person's input, Resume, Stop),
// inspected like the task's other actors, so the web's Machines tab shows it live. Its report*
// actions stay no-ops here: the real overlay reports; the mirror only follows.
// Given the task actor as `parent`, it runs in the task's own actor system (one system, one
// clock and one inspection observer per task tree), not in a second one of its own.
import { createActor, type AnyActorRef, type InspectionEvent } from 'xstate';
import { pluginUiMachine, type TaskStatus } from '../../machines/index.ts';

export interface PluginUiMirror {
  status(status: TaskStatus): void;
  actionStarted(actionId: string): void;
  actionSettled(actionId: string): void;
  userInput(kind: string): void;
  resume(): void;
  stop(): void;
  value(): string;
  dispose(): void;
}

export function createPluginUiMirror(
  taskId: string,
  inspectOrTree?: ((event: InspectionEvent) => void) | { parent: AnyActorRef },
): PluginUiMirror {
  const where = typeof inspectOrTree === 'function' ? { inspect: inspectOrTree } : (inspectOrTree ?? {});
  const actor = createActor(pluginUiMachine, { id: `pluginUi:${taskId}`, ...where });
  actor.start();
  return {
    status: (status) => actor.send({ type: 'TASK_STATUS', status, taskId }),
    actionStarted: (actionId) => actor.send({ type: 'ACTION_STARTED', actionId }),
    actionSettled: (actionId) => actor.send({ type: 'ACTION_SETTLED', actionId }),
    userInput: (kind) => actor.send({ type: 'USER_INPUT', kind }),
    resume: () => actor.send({ type: 'RESUME' }),
    stop: () => actor.send({ type: 'STOP' }),
    value: () => String(actor.getSnapshot().value),
    // In a task's tree it has no timers and goes with its task (XState stops only root actors directly).
    dispose: () => {
      if (!('parent' in where)) actor.stop();
    },
  };
}
