// The task store as the runtime writes to it: secrets seen at run time (text typed into password
// fields, password-like values written in the chat: chat-secrets.ts) are replaced in what gets
// persisted: messages, the task's title and its machine snapshot (whose LLM history holds the
// tool calls' arguments). Reads and everything else pass through.
import type { TaskStore } from '../store/index.ts';
import { redactSecretValues, type SecretRegistry } from './redact.ts';

export function redactingTaskStore(store: TaskStore, secrets: SecretRegistry): TaskStore {
  return {
    init: () => store.init(),
    // The title comes from the first message: a password written in the chat stays out of it (and so out of index.jsonl).
    createTaskIfAbsent: (input) => store.createTaskIfAbsent(redactSecretValues(input, secrets)),
    getTask: (taskId) => store.getTask(taskId),
    listTasks: () => store.listTasks(),
    listTaskPage: (query) => store.listTaskPage(query),
    updateTask: (taskId, patch) => store.updateTask(taskId, redactSecretValues(patch, secrets)),
    appendMessage: (taskId, message) => store.appendMessage(taskId, redactSecretValues(message, secrets)),
    listMessages: (taskId) => store.listMessages(taskId),
    close: () => store.close(),
  };
}
