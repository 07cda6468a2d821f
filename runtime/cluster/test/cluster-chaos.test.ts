// The short chaos run, in `npm test` (alone: `npm run chaos:short`; the long one: `npm run chaos`,
// scripts/chaos.ts). Three node processes, web clients on random nodes, three roaming fake
// extensions, and a seeded driver injecting kill -9, SIGTERM and a PostgreSQL restart while the
// tasks run. The invariants are checked on the history (chaos-check.ts): every acknowledged message
// answered exactly once and in order, no task stranded, no click or page open run twice, and every
// client's chat, rendered by seq as the web UI does, in causal order (no old owner's event after a
// new owner's, no seq given twice, no event twice); no node exits on its own and every SIGTERM
// ends in exit 0 after a handoff.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runChaos } from './chaos-run.ts';

const chaos = suite('cluster chaos (short)');

chaos('kill -9, SIGTERM and a PostgreSQL restart while 50 tasks run: every invariant holds', async () => {
  // The schedule of faults is a function of the seed alone; seed 1 gives all three kinds.
  const outcome = await runChaos({ tasks: 50, faults: 4, faultEveryMs: 2_000, seed: 1, settleMs: 30_000 });
  const { report } = outcome;
  console.log(
    `    chaos: ${report.tasks} tasks, faults ${JSON.stringify(outcome.faults)}, ${report.acknowledged} acknowledged, ${report.answered} answered (${report.failed} of them by a failed turn's outcome note: ${JSON.stringify(report.failedBy)}), ` +
      `${report.answeredTwice.length} answered twice, ${report.stranded.length} stranded, ${report.executedTwice.length} run twice, ` +
      `${report.resentSameId} re-sent under their own actionId, ${outcome.unacknowledged} never acknowledged, ` +
      `${report.eventsArrivedLate} events arrived after a later one, ${outcome.durationMs} ms`,
  );
  for (const kind of ['kill9', 'sigterm', 'pgRestart'] as const)
    assert.ok(outcome.faults[kind] > 0, `a ${kind} fault was injected`);
  assert.equal(outcome.unexpectedExits, [], 'no node exited on its own');
  assert.ok(
    outcome.sigtermExits.every((code) => code === 0),
    `SIGTERM exits: ${outcome.sigtermExits.join(',')}`,
  );
  assert.equal(report.lost, []);
  assert.equal(report.unanswered, []);
  assert.equal(report.answeredTwice, []);
  assert.equal(report.outOfOrder, []);
  assert.equal(report.stranded, []);
  assert.equal(report.executedTwice, []);
  assert.equal(report.eventsOutOfOrder, []);
  assert.ok(report.acknowledged >= 140, `${report.acknowledged} of 150 messages acknowledged`);
});

chaos.run();
