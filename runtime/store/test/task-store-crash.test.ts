// Durability under `kill -9`: a child process appends messages and prints each acknowledged id;
// we SIGKILL it mid-stream, reopen the store, and check that every acknowledged message is there
// and that every file the store owns still parses.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaskStore } from '../task-store.ts';
import { listJsonFiles, makeTempDir, parseAll } from './util.ts';

const childScript = fileURLToPath(new URL('./append-child.ts', import.meta.url));

/** Runs the child until it has acknowledged `killAfter` appends, SIGKILLs it, returns the acks. */
function runAndKill(dataDir: string, round: number, fsync: boolean, killAfter: number): Promise<Map<string, string[]>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, dataDir, String(round), fsync ? '1' : '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked = new Map<string, string[]>();
    let count = 0;
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk) => (stderr += chunk));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [kind, taskId, id] = line.split(' ');
      if (kind !== 'ack' || !taskId || !id) return;
      acked.set(taskId, [...(acked.get(taskId) ?? []), id]);
      if (++count >= killAfter && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`child exited on its own (code ${code}): ${stderr}`));
    });
  });
}

const s = suite('file task store: kill -9 during writes');

for (const fsync of [false, true]) {
  s(`no acknowledged message is lost and every file parses (fsync ${fsync})`, async () => {
    const temp = await makeTempDir('crash');
    try {
      const allAcked = new Map<string, string[]>();
      // Several rounds on the same data folder, killed after a varying number of acks.
      for (const [round, killAfter] of [150, 401, 263].entries()) {
        const acked = await runAndKill(temp.dir, round, fsync, killAfter);
        for (const [taskId, ids] of acked) allAcked.set(taskId, [...(allAcked.get(taskId) ?? []), ...ids]);

        await parseAll(await listJsonFiles(temp.dir));
        const store = createTaskStore({ dataDir: temp.dir, clock: { now: () => Date.now() } });
        const report = await store.init();
        assert.equal(report.skipped, []);
        assert.is(report.taskCount, 3);
        let total = 0;
        for (const [taskId, ids] of allAcked) {
          const stored = await store.listMessages(taskId);
          const storedIds = new Set(stored.map((m) => m.id));
          const missing = ids.filter((id) => !storedIds.has(id));
          assert.equal(missing, [], `round ${round}: acknowledged but missing in ${taskId}`);
          assert.is(storedIds.size, stored.length, 'no duplicate ids');
          total += ids.length;
        }
        assert.ok(total >= killAfter, `round ${round}: ${total} acks counted`);
        const snapshot = (await store.getTask('crash-a'))!.machineSnapshot as { blob: string } | undefined;
        if (snapshot) assert.is(snapshot.blob.length, 500);
        await store.close();
      }
    } finally {
      await temp.remove();
    }
  });
}

s.run();
