// The Machines tab's view of the inspection records: readable names, internal events hidden by
// default, payloads on click, a timeline of transitions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { InspectionRecord } from '../../transport/contracts/frontend-event.ts';
import { inspectionView } from '../src/models/inspection-view.ts';

const TASK = '01M8ZZZZ000000000000000XYZ';
const records: InspectionRecord[] = [
  {
    type: '@xstate.actor',
    actorId: 'x:1',
    machineId: 'task',
    name: `task:${TASK}`,
    value: 'created',
    context: { taskId: TASK },
    timestamp: 1,
  },
  { type: '@xstate.event', actorId: 'x:1', machineId: 'task', event: { type: 'xstate.init' }, timestamp: 1 },
  {
    type: '@xstate.event',
    actorId: 'x:1',
    machineId: 'task',
    event: { type: 'USER_MESSAGE', message: { id: 'm1', content: '[redacted]' } },
    timestamp: 2,
  },
  {
    type: '@xstate.snapshot',
    actorId: 'x:1',
    machineId: 'task',
    value: { running: 'active' },
    event: { type: 'USER_MESSAGE' },
    timestamp: 2,
  },
  {
    type: '@xstate.actor',
    actorId: 'x:7',
    machineId: 'action',
    value: 'dispatching',
    context: { actionName: 'browser_open' },
    timestamp: 3,
  },
  {
    type: '@xstate.actor',
    actorId: 'x:9',
    machineId: 'action',
    value: 'dispatching',
    context: { actionName: 'browser_click' },
    timestamp: 4,
  },
  {
    type: '@xstate.actor',
    actorId: 'x:11',
    machineId: 'pluginUi',
    name: `pluginUi:${TASK}`,
    value: 'idle',
    timestamp: 4,
  },
  {
    type: '@xstate.snapshot',
    actorId: 'x:11',
    machineId: 'pluginUi',
    value: 'takeover',
    event: { type: 'TASK_STATUS' },
    timestamp: 5,
  },
] as InspectionRecord[];

const view = suite('machines tab view');

view('actors read as "task 01M8…", "action click #2", "plugin UI"', () => {
  const v = inspectionView(records, { showInternal: false });
  assert.equal(
    [...v.actors.values()].map((a) => a.label),
    ['task 01M8…0XYZ', 'action open #1', 'action click #2', 'plugin UI'],
  );
});

view('xstate.* events are hidden by default and counted; payloads come with the event', () => {
  const hidden = inspectionView(records, { showInternal: false });
  assert.is(hidden.hiddenInternal, 1);
  assert.not.ok(hidden.events.some((e) => e.eventType === 'xstate.init'));
  const message = hidden.events.find((e) => e.eventType === 'USER_MESSAGE');
  assert.equal(message?.payload, { message: { id: 'm1', content: '[redacted]' } });
  const shown = inspectionView(records, { showInternal: true });
  assert.ok(shown.events.some((e) => e.eventType === 'xstate.init' && e.internal));
});

view('the timeline lists state changes, newest first', () => {
  const v = inspectionView(records, { showInternal: false });
  assert.equal(
    v.timeline.map((t) => `${t.label}: ${t.from} -> ${t.to} on ${t.eventType}`),
    ['plugin UI: idle -> takeover on TASK_STATUS', 'task 01M8…0XYZ: created -> running.active on USER_MESSAGE'],
  );
});

view.run();
