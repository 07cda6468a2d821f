// `npm run chaos`: the long chaos run of cluster mode (runtime/cluster/test/chaos-run.ts).
// Options: --tasks N (default 50), --faults N (default 12), --every MS (default 3000), --seed N.
// Prints every fault and the figures; exits 1 when an invariant is broken.
import { runChaos } from '../runtime/cluster/test/chaos-run.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seed = arg('seed', Date.now() % 100_000);
const options = { tasks: arg('tasks', 50), faults: arg('faults', 12), faultEveryMs: arg('every', 3_000), seed };
console.log(`chaos: ${options.tasks} tasks, ${options.faults} faults every ~${options.faultEveryMs} ms, seed ${seed}`);
const outcome = await runChaos({ ...options, log: (line) => console.log(`  ${line}`) });
const { report } = outcome;
console.log(JSON.stringify({ ...outcome, report: { ...report, answered: report.answered } }, null, 2));
const clean = report.ok && outcome.unexpectedExits.length === 0 && outcome.sigtermExits.every((c) => c === 0);
console.log(clean ? 'chaos: every invariant held' : 'chaos: INVARIANT BROKEN (see above)');
process.exit(clean ? 0 : 1);
