// A damaged task file at start is reported, never silently dropped (issue 12): a log line per
// file, and GET /api/task/list?damaged=1 lists them; the file stays on disk untouched and the
// healthy tasks are served as before.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startRuntime } from './util.ts';

const GOOD = '01HR9ZQ6ZC0Y0A7N4V1E8W2K3M';
const BAD = '01HR9ZQ6ZC0Y0A7N4V1E8W2K3N';

test('a damaged meta file is logged and listed with ?damaged=1; the good task is still listed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mimo-damaged-'));
  try {
    // A first run writes a real task.
    const first = await startRuntime({ dir, persistent: true });
    await first.server.taskStore.createTaskIfAbsent({ taskId: GOOD, title: 'kept' });
    await first.server.close();
    // Then a task folder is damaged (a torn write, a bad edit).
    const badDir = join(dir, 'data', 'tasks', BAD);
    mkdirSync(badDir, { recursive: true });
    writeFileSync(join(badDir, 'meta.json'), '{"task": {"taskId": "01HR9ZQ6ZC0Y0A7N4V1E8W2K3N", "tit');

    const rt = await startRuntime({ dir, persistent: true });
    try {
      const logged = rt.logs.filter((l) => l.event === 'task_file_damaged');
      assert.equal(
        logged.map((l) => l.taskId),
        [BAD],
      );
      assert.match(String(logged[0]!.reason), /unreadable meta file|unrecognized/);
      const list = await (await fetch(`${rt.server.url}/api/task/list`)).json();
      assert.equal(
        list.data.map((t: { taskId: string }) => t.taskId),
        [GOOD],
      );
      const damaged = await (await fetch(`${rt.server.url}/api/task/list?damaged=1`)).json();
      assert.is(damaged.ok, true);
      assert.equal(
        damaged.data.map((d: { taskId: string }) => d.taskId),
        [BAD],
      );
      assert.ok(typeof damaged.data[0].reason === 'string' && damaged.data[0].reason.length > 0);
      assert.match(readFileSync(join(badDir, 'meta.json'), 'utf8'), /"tit$/, 'left untouched on disk');
    } finally {
      await rt.server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
