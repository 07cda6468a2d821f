// The short fuzz run of `npm test` (the full one is `npm run stress`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFuzz } from './fuzz.ts';

const test = suite('fuzz (short)');

test('20,000 random/mutated frames and 2,000 random JSON messages: the server survives, garbage connections close, the control client is unaffected', async () => {
  const report = await runFuzz({ frames: 20_000, jsonMessages: 2_000, seed: Number(process.env.MIMO_FUZZ_SEED ?? 7) });
  assert.ok(report.serverAlive, 'server died');
  assert.is(report.framesSent, 20_000);
  assert.is(report.jsonMessagesAnswered, report.jsonMessagesSent, 'every JSON message answered through its ack');
  assert.ok(
    report.garbageConnectionsClosed > 10,
    `only ${report.garbageConnectionsClosed} garbage connections seen closing`,
  );
  assert.is(report.garbageConnectionsLeftOpen, 0, `left open after: ${JSON.stringify(report.leftOpenAfter)}`);
  assert.ok(report.controlRoundTrips > 0);
  assert.is(report.controlFailures, 0);
});

test.run();
