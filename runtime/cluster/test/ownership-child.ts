// A node process for the kill -9 test: registers as a node, claims the tasks named on the command
// line, prints "claimed", then idles until it is killed.
import pg from 'pg';
import { createTaskOwnership } from '../task-ownership.ts';

const [databaseUrl, nodeId, ...tasks] = process.argv.slice(2) as [string, string, ...string[]];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const ownership = await createTaskOwnership({
  connectionString: databaseUrl,
  pool,
  nodeId,
  url: 'http://child',
  clock: { now: () => Date.now() },
});
for (const task of tasks) if (!(await ownership.claim(task))) throw new Error(`could not claim ${task}`);
console.log('claimed');
setInterval(() => {}, 1 << 30);
