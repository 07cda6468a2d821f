// The server's mirror of the extension's plugin-UI actor (ARCHITECTURE: pluginUiMachine runs in
// the content script and is mirrored by the server): the same definition, fed the same events the
// overlay gets (task status, actions starting and settling, the person's input, Resume, Stop),
// inspected like the task's other actors, so the web's Machines tab shows it live. Its report*
// actions stay no-ops here: the real overlay reports; the mirror only follows.
import { createActor, type InspectionEvent } from 'xstate';
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

export function createPluginUiMirror(taskId: string, inspect?: (event: InspectionEvent) => void): PluginUiMirror {
  const actor = createActor(pluginUiMachine, { id: `pluginUi:${taskId}`, ...(inspect ? { inspect } : {}) });
  actor.start();
  return {
    status: (status) => actor.send({ type: 'TASK_STATUS', status, taskId }),
    actionStarted: (actionId) => actor.send({ type: 'ACTION_STARTED', actionId }),
    actionSettled: (actionId) => actor.send({ type: 'ACTION_SETTLED', actionId }),
    userInput: (kind) => actor.send({ type: 'USER_INPUT', kind }),
    resume: () => actor.send({ type: 'RESUME' }),
    stop: () => actor.send({ type: 'STOP' }),
    value: () => String(actor.getSnapshot().value),
    dispose: () => actor.stop(),
  };
}
