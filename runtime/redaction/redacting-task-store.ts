// The task store as the runtime writes to it: secrets seen at run time (text typed into password
// fields) are replaced in what gets persisted: messages and the task's machine snapshot (whose
// LLM history holds the tool calls' arguments). Reads and everything else pass through.
import type { TaskStore } from '../store/index.ts';
import { redactSecretValues, type SecretRegistry } from './redact.ts';

export function redactingTaskStore(store: TaskStore, secrets: SecretRegistry): TaskStore {
  return {
    init: () => store.init(),
    createTaskIfAbsent: (input) => store.createTaskIfAbsent(input),
    getTask: (taskId) => store.getTask(taskId),
    listTasks: () => store.listTasks(),
    updateTask: (taskId, patch) => store.updateTask(taskId, patch.machineSnapshot === undefined ? patch : { ...patch, machineSnapshot: redactSecretValues(patch.machineSnapshot, secrets) }),
    appendMessage: (taskId, message) => store.appendMessage(taskId, redactSecretValues(message, secrets)),
    listMessages: (taskId) => store.listMessages(taskId),
    close: () => store.close(),
  };
}
