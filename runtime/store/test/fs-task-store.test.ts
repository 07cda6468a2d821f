import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFsTaskFiles } from '../task-files.ts';
import { createTaskStore } from '../task-store.ts';
import { createTaskStoreCore } from '../task-store-core.ts';
import { defineTaskStoreBehaviour } from './task-store-behaviour.ts';
import { makeTempDir } from './util.ts';

for (const fsync of [false, true]) {
  defineTaskStoreBehaviour(`file task store (fsync ${fsync})`, async (clock) => {
    const temp = await makeTempDir('store');
    const taskDir = (taskId: string) => join(temp.dir, 'tasks', taskId);
    // createTaskStore's parts, so the harness can make the store let go of a log's held append
    // handle (as an LRU eviction or a finished task does) before swapping the file behind it.
    const files = createFsTaskFiles({ dataDir: temp.dir, fsync });
    return {
      clock,
      store: createTaskStoreCore({ files, clock }),
      reopen: () => createTaskStore({ dataDir: temp.dir, clock, fsync }),
      // Works as root too (where a read-only folder would not stop writes): a folder squatting on
      // the temp file name makes the write fail with EISDIR; a plain file squatting on the task
      // folder makes creating the task fail with EEXIST/ENOTDIR.
      breakWrites: async (taskId) => {
        const exists = await stat(taskDir(taskId)).then(
          () => true,
          () => false,
        );
        if (!exists) return writeFile(taskDir(taskId), 'not a folder');
        await mkdir(join(taskDir(taskId), '.meta.json.tmp'));
        await mkdir(join(taskDir(taskId), '.messages.json.tmp'));
        // The message log cannot be appended to: a folder where the file was (the store owns its
        // folder: an open handle would keep appending to the moved file, so it is released first).
        await files.releaseTask?.(taskId);
        const log = join(taskDir(taskId), 'messages.jsonl');
        await rename(log, `${log}.aside`).catch(() => undefined);
        await mkdir(log);
      },
      healWrites: async (taskId) => {
        const info = await stat(taskDir(taskId));
        if (info.isFile()) return rm(taskDir(taskId));
        await rm(join(taskDir(taskId), '.meta.json.tmp'), { recursive: true, force: true });
        await rm(join(taskDir(taskId), '.messages.json.tmp'), { recursive: true, force: true });
        const log = join(taskDir(taskId), 'messages.jsonl');
        await rm(log, { recursive: true, force: true });
        await rename(`${log}.aside`, log).catch(() => undefined);
      },
      cleanup: temp.remove,
    };
  });
}
