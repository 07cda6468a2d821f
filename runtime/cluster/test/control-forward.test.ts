// The forwarder (control-forward.ts) on the injected clock: while it waits for the owner's answer
// it checks every `pollMs` that the owner still holds the task; the wait ends at once when the
// owner is gone, and after `timeoutMs` without an answer. Simulated time: nothing waits for real.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestClock } from '../../clock/index.ts';
import type { Namespace } from '../../../transport/server/index.ts';
import { createForwarder, type ForwardOutcome } from '../control-forward.ts';

function setup(ownerOf: () => string | null) {
  const clock = createTestClock(0);
  const sent: unknown[] = [];
  const nsp = {
    on: () => undefined,
    serverSideEmit: (_event: string, payload: unknown) => (sent.push(payload), true),
  } as unknown as Namespace;
  let checks = 0;
  const forwarder = createForwarder({
    nsp,
    nodeId: () => 'b',
    ownerOf: async () => (checks++, ownerOf()),
    handle: async () => null,
    log: () => undefined,
    clock,
    pollMs: 200,
    timeoutMs: 5_000,
  });
  const settle = () => new Promise((r) => setImmediate(r));
  return { clock, sent, forwarder, settle, checks: () => checks };
}

const test = suite('control forward on the injected clock');

test('the owner dies while the command waits: owner_gone at the next poll, on simulated time', async () => {
  let owner: string | null = 'a';
  const w = setup(() => owner);
  let outcome: ForwardOutcome | undefined;
  void w.forwarder.forward('a', 't1', 'stop', ['t1']).then((o) => (outcome = o));
  assert.is(w.sent.length, 1, 'the request went out');
  w.clock.increment(200);
  await w.settle();
  assert.is(outcome, undefined, 'the owner still holds the task: it waits on');
  owner = null;
  w.clock.increment(200);
  await w.settle();
  assert.equal(outcome, { kind: 'owner_gone' });
  assert.is(w.checks(), 2);
});

test('no answer and a live owner: timeout after timeoutMs, polls stop then', async () => {
  const w = setup(() => 'a');
  let outcome: ForwardOutcome | undefined;
  void w.forwarder.forward('a', 't1', 'stop', ['t1']).then((o) => (outcome = o));
  for (let t = 0; t < 5_000; t += 200) {
    w.clock.increment(200);
    await w.settle();
  }
  assert.equal(outcome, { kind: 'timeout' });
  const checks = w.checks();
  w.clock.increment(1_000);
  await w.settle();
  assert.is(w.checks(), checks, 'no poll after the wait ended');
});

test.run();
