import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { InspectionRecord } from '../../transport/contracts/frontend-event.ts';
import { createStatelyBridge, type InspectorLike, type MessageWindow } from '../src/models/stately-bridge.ts';

class FakeWindow implements MessageWindow {
  listeners = new Set<(e: { data: unknown }) => void>();
  addEventListener(_: 'message', l: (e: { data: unknown }) => void) {
    this.listeners.add(l);
  }
  removeEventListener(_: 'message', l: (e: { data: unknown }) => void) {
    this.listeners.delete(l);
  }
  post(data: unknown) {
    this.listeners.forEach((l) => l({ data }));
  }
}

function setup(options: { opens?: boolean; loadFails?: boolean } = {}) {
  const calls: unknown[][] = [];
  const win = new FakeWindow();
  const timers: (() => void)[] = [];
  const inspector: InspectorLike = {
    actor: (...args) => void calls.push(['actor', ...args]),
    snapshot: (...args) => void calls.push(['snapshot', ...args]),
    event: (...args) => void calls.push(['event', ...args]),
    stop: () => void calls.push(['stop']),
    adapter: { targetWindow: options.opens === false ? null : {} },
  };
  const bridge = createStatelyBridge({
    load: async () => {
      if (options.loadFails) throw new Error('offline');
      return () => inspector;
    },
    window: win,
    definitionOf: (id) => (id === 'task' ? { id: 'task', states: {} } : undefined),
    setTimeout: (fn) => timers.push(fn),
    clearTimeout: () => {},
  });
  return { bridge, calls, win, fireTimers: () => timers.splice(0).forEach((t) => t()) };
}

const records: InspectionRecord[] = [
  { type: '@xstate.actor', actorId: 'task:1', machineId: 'task', snapshot: { value: 'created', status: 'active' } },
  { type: '@xstate.event', actorId: 'task:1', event: { type: 'USER_MESSAGE' }, sourceId: 'web' },
  {
    type: '@xstate.snapshot',
    actorId: 'task:1',
    snapshot: { value: { running: 'active' } },
    event: { type: 'USER_MESSAGE' },
  },
];

const bridge = suite('Stately Inspector bridge');

bridge('replays records as actor (with definition), event and snapshot calls', async () => {
  const { bridge: b, calls } = setup();
  await b.open(records);
  assert.is(b.status.value, 'waiting');
  assert.equal(calls[0]![0], 'actor');
  assert.equal(calls[0]![1], { sessionId: 'task:1', id: 'task:1', logic: { config: { id: 'task', states: {} } } });
  assert.equal(calls[1], ['event', 'task:1', { type: 'USER_MESSAGE' }, { source: 'web' }]);
  assert.equal(calls[2], [
    'snapshot',
    'task:1',
    { status: 'active', value: { running: 'active' } },
    { event: { type: 'USER_MESSAGE' } },
  ]);
});

bridge('an actor first seen in a snapshot is registered before it', async () => {
  const { bridge: b, calls } = setup();
  await b.open([]);
  b.forward({ type: '@xstate.snapshot', actorId: 'act-9', machineId: 'action', snapshot: { value: 'executing' } });
  assert.equal(
    calls.map((c) => c[0]),
    ['actor', 'snapshot'],
  );
  assert.is(calls[0]![1], 'act-9', 'no definition known: registered by id');
});

bridge('connected when the inspector window answers; unreachable when it does not', async () => {
  const a = setup();
  await a.bridge.open(records);
  a.win.post({ type: '@statelyai.connected' });
  a.fireTimers();
  assert.is(a.bridge.status.value, 'connected');

  const b = setup();
  await b.bridge.open(records);
  b.fireTimers();
  assert.is(b.bridge.status.value, 'unreachable');
  assert.match(b.bridge.error.value ?? '', /stately\.ai/);
});

bridge('a blocked pop-up and a failed load are reported, not thrown', async () => {
  const blocked = setup({ opens: false });
  await blocked.bridge.open(records);
  assert.is(blocked.bridge.status.value, 'blocked');
  const failed = setup({ loadFails: true });
  await failed.bridge.open(records);
  assert.is(failed.bridge.status.value, 'failed');
});

bridge('close stops the inspector and forwards nothing more', async () => {
  const { bridge: b, calls } = setup();
  await b.open([]);
  b.close();
  b.forward(records[0]!);
  assert.equal(calls, [['stop']]);
  assert.is(b.status.value, 'closed');
});

bridge.run();
