// The inspection hub: records are built only for a task someone listens to; a late subscriber
// still gets the current state (the latest snapshot of each live actor), never a stopped one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, createMachine, fromPromise } from 'xstate';
import { createInspectionHub, type InspectionRecordJson } from '../agent/inspection-hub.ts';

const test = suite('inspection hub');

const child = fromPromise(async () => 1);
const machine = createMachine({
  id: 'parent',
  initial: 'idle',
  states: {
    idle: { on: { GO: 'working' } },
    working: { invoke: { src: child, onDone: 'done' } },
    done: { on: { AGAIN: 'idle' } },
  },
});

test('nobody listening: no record is built, recent() gives the live actors; a listener gets every record', async () => {
  let redactions = 0;
  const hub = createInspectionHub({ clock: { now: () => 7 }, redact: (r) => (redactions++, r) });
  const actor = createActor(machine, { inspect: hub.observerFor('t1') }).start();
  actor.send({ type: 'GO' });
  await new Promise((r) => setTimeout(r, 0));
  assert.is(actor.getSnapshot().value, 'done');
  assert.is(redactions, 0, 'no record made while nobody listens');
  const recent = hub.recent('t1');
  assert.is(recent.length, 1, 'the finished child is not replayed');
  assert.equal([recent[0]!.machineId, recent[0]!.value, recent[0]!.timestamp], ['parent', 'done', 7]);

  const seen: InspectionRecordJson[] = [];
  const stop = hub.subscribe('t1', (r) => seen.push(r));
  actor.send({ type: 'AGAIN' });
  actor.send({ type: 'GO' });
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(seen.some((r) => r.type === '@xstate.event' && r.event?.type === 'GO'));
  const childActor = seen.find((r) => r.type === '@xstate.actor' && r.machineId === undefined);
  assert.ok(childActor?.parentId, 'the invoked child carries its parent');
  assert.ok(redactions >= seen.length);
  stop();
  const count = seen.length;
  actor.send({ type: 'AGAIN' });
  assert.is(seen.length, count);
  assert.is(hub.recent('t2').length, 0);
});

test.run();
