// The short soak of `npm test` (the full one, 1,000 sockets / 200 tasks / 60 s, is `npm run stress`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runSoak } from './soak.ts';

const test = suite('soak (short)');

test('300 sockets, 30 concurrent browser tasks for 8 s: no lost chatDelta, server alive', async () => {
  const report = await runSoak({ seconds: 8, sockets: 300, tasks: 30, plugins: 2 });
  assert.ok(report.serverAlive);
  assert.ok(report.messagesSent >= 30, `only ${report.messagesSent} messages`);
  assert.is(report.lost, 0);
  assert.ok(report.actions > 0);
});

test.run();
