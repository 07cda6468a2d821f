// The short soak of `npm test` (the full one, 1,000 sockets / 200 tasks / 60 s, is `npm run stress`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runSoak } from './soak.ts';

const test = suite('soak (short)');

test('300 sockets, 30 concurrent browser tasks for 8 s: no lost chatDelta, server alive', async () => {
  const report = await runSoak({ seconds: 8, sockets: 300, tasks: 30, plugins: 2, cycles: 2, restMs: 1_500 });
  assert.ok(report.serverAlive, 'the server process exited during the soak');
  assert.ok(report.messagesSent >= 30, `only ${report.messagesSent} messages`);
  assert.is(report.lost, 0);
  // Each task's first turn opens a page (task_start, page prep, dom index...): the plugins
  // themselves counted what they executed.
  assert.ok(report.actions >= report.tasks * 2, `${report.actions} actions for ${report.tasks} tasks`);
  assert.is(report.cycles, 2);
  assert.ok(report.heapSamples.length >= 4, `${report.heapSamples.length} heap samples`);
  assert.is(report.heapSettled.length, 2, 'one settled heap per rest');
  assert.ok(
    report.heapSettled.every((s) => report.heapSamples.includes(s)),
    'each settled heap is one of the rest samples',
  );
  assert.ok(Number.isFinite(report.heap.slopeMBPerMin));
});

test.run();
