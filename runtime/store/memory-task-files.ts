// In-memory `TaskFiles`: each document is kept as JSON text, so what the memory store hands back
// went through the same serialization as the file store (no shared references, same dropped
// `undefined`s). `failWrites` lets tests of other modules simulate a failing disk.
import type { Adapter } from 'lowdb';
import type { TaskFiles, TaskMetaDoc } from './task-files.ts';
import type { Message } from './task-types.ts';

export interface MemoryTaskFiles extends TaskFiles {
  /** While true, every write rejects with an EIO-like error and changes nothing. */
  failWrites: boolean;
}

export function createMemoryTaskFiles(): MemoryTaskFiles {
  const texts = new Map<string, string>();
  /** Each task's message log, one JSON line per message (what the file store appends). */
  const logs = new Map<string, string[]>();
  const tasks = new Set<string>();

  const files: MemoryTaskFiles = {
    failWrites: false,
    async listTaskIds() {
      return [...tasks];
    },
    async prepareTask(taskId) {
      if (files.failWrites) throw Object.assign(new Error('simulated write failure'), { code: 'EIO' });
      tasks.add(taskId);
    },
    meta: (taskId) => textAdapter<TaskMetaDoc>(`${taskId}/meta`),
    messageLog: (taskId) => ({
      async read() {
        return (logs.get(taskId) ?? []).map((line) => JSON.parse(line) as Message);
      },
      async append(message) {
        if (files.failWrites) throw Object.assign(new Error('simulated write failure'), { code: 'EIO' });
        const log = logs.get(taskId) ?? [];
        log.push(JSON.stringify(message));
        logs.set(taskId, log);
      },
    }),
  };

  function textAdapter<T>(key: string): Adapter<T> {
    return {
      async read() {
        const text = texts.get(key);
        return text === undefined ? null : (JSON.parse(text) as T);
      },
      async write(data) {
        if (files.failWrites) throw Object.assign(new Error('simulated write failure'), { code: 'EIO' });
        texts.set(key, JSON.stringify(data));
      },
    };
  }

  return files;
}
