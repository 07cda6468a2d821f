// The inspection hub keeps the last `keep` records of each task (oldest first, also once the
// ring has wrapped) for late subscribers, and its context summary is the scalar part of what the
// deep redacting copy gives (ids, counters, statuses, instance labels), secrets redacted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assign, createActor, createMachine } from 'xstate';
import { createInspectionHub } from '../inspection-hub.ts';
import { redactedPayload, redactedScalars } from '../inspection-redact.ts';

const test = suite('inspection hub');

const counter = createMachine({
  id: 'counter',
  context: { n: 0 },
  on: { TICK: { actions: ({ context }) => void context } },
});

test('late subscribers get the last `keep` records, oldest first, after the ring wrapped; live listeners get each record once', () => {
  let now = 1_000;
  const hub = createInspectionHub({ clock: { now: () => now++ }, keep: 5 });
  const live: number[] = [];
  const actor = createActor(counter, { id: 'task:T', inspect: hub.observerFor('T') });
  actor.start();
  const stop = hub.subscribe('T', (record) => live.push(record.timestamp));
  for (let i = 0; i < 9; i++) actor.send({ type: 'TICK' });
  stop();
  actor.send({ type: 'TICK' });
  const recent = hub.recent('T');
  assert.is(recent.length, 5);
  const stamps = recent.map((r) => r.timestamp);
  assert.equal(
    stamps,
    [...stamps].sort((a, b) => a - b),
    'oldest first',
  );
  assert.is(stamps.at(-1), now - 1, 'ends with the newest record');
  assert.is(new Set(live).size, live.length);
  assert.ok(live.length >= 18, `two records (event, snapshot) per TICK while subscribed: ${live.length}`);
  assert.equal(hub.recent('other'), []);
});

test('fewer records than `keep`: all of them, in order', () => {
  let now = 0;
  const hub = createInspectionHub({ clock: { now: () => now++ } });
  const actor = createActor(counter, { inspect: hub.observerFor('T') });
  actor.start();
  actor.send({ type: 'TICK' });
  const stamps = hub.recent('T').map((r) => r.timestamp);
  assert.equal(stamps, [...stamps.keys()], 'every record, in order (the clock is read once per record)');
});

test('redactedScalars = the scalar fields of redactedPayload, without copying the nested ones', () => {
  class Ref {
    id = 'act-1';
  }
  const context = {
    taskId: 'T1',
    attempts: 2,
    answered: false,
    error: null,
    password: 'hunter2',
    text: 'typed by the person',
    value: '',
    long: 'x'.repeat(500),
    ref: new Ref(),
    nested: { deep: { secret: 'no' } },
    list: [1, 2, 3],
    failure: new Error('boom'),
    missing: undefined,
  };
  const fromDeep = Object.fromEntries(
    Object.entries(redactedPayload(context)).filter(
      ([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v),
    ),
  );
  const scalars = redactedScalars(context);
  assert.equal(scalars, fromDeep);
  assert.is(scalars.password, '[redacted]');
  assert.is(scalars.text, '[redacted]');
  assert.is(scalars.ref, '[Ref act-1]');
  assert.is((scalars.long as string).length, 160);
  assert.not.ok('nested' in scalars || 'list' in scalars || 'failure' in scalars);
  // Only the first 20 keys are looked at, as in the deep copy.
  const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
  assert.equal(redactedScalars(wide), redactedPayload(wide));
});

test('records are kept for the most recently active `keepTasks` tasks; a watched task keeps them regardless', () => {
  const hub = createInspectionHub({ clock: { now: () => 0 }, keep: 10, keepTasks: 3 });
  const actors = new Map<string, ReturnType<typeof createActor<typeof counter>>>();
  const tick = (taskId: string) => {
    let actor = actors.get(taskId);
    if (!actor) actors.set(taskId, (actor = createActor(counter, { inspect: hub.observerFor(taskId) }).start()));
    else actor.send({ type: 'TICK' });
  };
  const stop = hub.subscribe('watched', () => {});
  tick('watched');
  for (const taskId of ['a', 'b', 'c']) tick(taskId); // c is the fourth: a (oldest unwatched) goes
  tick('a'); // a is active again (a new history): b, now the oldest unwatched, goes
  tick('d'); // and then c
  const kept = (taskId: string) => hub.recent(taskId).length > 0;
  assert.equal(['watched', 'a', 'b', 'c', 'd'].map(kept), [true, true, false, false, true]);
  assert.ok(hub.recent('watched').length > 0, 'the watched task, the least recently active, is never dropped');
  stop();
});

test('unwatched events stay notes until read: redact runs when recent() is asked, once per record, and the records show each state at its time', () => {
  let now = 0;
  let redactions = 0;
  const hub = createInspectionHub({ clock: { now: () => now++ }, redact: (record) => (redactions++, record) });
  const counting = createMachine({
    id: 'counting',
    context: { n: 0 },
    on: { TICK: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
  });
  const actor = createActor(counting, { inspect: hub.observerFor('T') });
  actor.start();
  for (let i = 0; i < 3; i++) actor.send({ type: 'TICK' });
  assert.is(redactions, 0, 'nothing built while nobody looks');
  const recent = hub.recent('T');
  assert.is(redactions, recent.length, 'each record built (and redacted) once');
  const counts = recent.filter((r) => r.type === '@xstate.snapshot').map((r) => (r.context as { n: number }).n);
  assert.equal(counts.slice(-3), [1, 2, 3], 'each snapshot record shows the context of its time');
  hub.recent('T');
  assert.is(redactions, recent.length, 'read again: nothing rebuilt');
  const live: string[] = [];
  hub.subscribe('T', (record) => live.push(record.type));
  actor.send({ type: 'TICK' });
  assert.ok(live.length > 0 && redactions > recent.length, 'a watched task gets built records at once');
});

test.run();
