// Inspection: running with the `inspect` option yields @xstate.actor, @xstate.snapshot
// and @xstate.event records for every machine, and one browser_action's recorded
// sequence (normalised) matches the reviewed fixture in fixtures/inspection/. The
// fixture is read, never written, here: a change in the sequence is a change to review.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, SimulatedClock, type InspectionEvent } from 'xstate';
import { actionMachine } from '../action.machine.ts';
import { taskMachine } from '../task.machine.ts';
import { pluginUiMachine } from '../plugin-ui.machine.ts';
import { pagePrepMachine } from '../page-prep.machine.ts';
import { runMachine } from '../run.machine.ts';
import { createInspectionRecorder, type InspectionRecord } from './inspection-record.ts';
import { createDeferredActors, settle } from './util.ts';

const fixtureUrl = new URL('../../fixtures/inspection/action-browser-screenshot-retry.json', import.meta.url);

interface InspectionFixture {
  description: string;
  scenario: string[];
  records: InspectionRecord[];
}

/** The scenario the fixture describes: a retryable error, one retry, then success. */
async function recordScreenshotWithRetry(): Promise<InspectionRecord[]> {
  const recorder = createInspectionRecorder('action');
  const clock = new SimulatedClock();
  const actor = createActor(actionMachine.provide({ actions: { sendFrame: () => {} } }), {
    clock,
    inspect: recorder.inspect,
  });
  actor.start();
  actor.send({
    type: 'START',
    action: {
      actionId: 'act-001',
      actionName: 'browser_screenshot',
      params: { tabId: 123 },
      taskId: 'task-1',
      clientId: 'plugin-abc',
    },
  });
  actor.send({ type: 'ACK' });
  actor.send({
    type: 'RESULT',
    status: 'error',
    error: { code: 'PLUGIN_TIMEOUT_EXEC', message: 'capture stalled', retryable: true },
  });
  clock.increment(1_000);
  actor.send({ type: 'ACK' });
  actor.send({
    type: 'RESULT',
    status: 'success',
    result: { artifactId: 'art-123', url: 'http://localhost:6006/api/artifacts/art-123', width: 1280, height: 800 },
  });
  return recorder.records;
}

const inspection = suite('inspection');

inspection('one browser_action: the normalised inspection sequence matches the fixture', async () => {
  const fixture = JSON.parse(readFileSync(fixtureUrl, 'utf8')) as InspectionFixture;
  assert.ok(fixture.records.length > 15, 'the fixture holds a real sequence');
  const records = await recordScreenshotWithRetry();
  assert.equal(records, fixture.records);
});

inspection('the recorded sequence is deterministic (no volatile field survives normalisation)', async () => {
  assert.equal(await recordScreenshotWithRetry(), await recordScreenshotWithRetry());
});

inspection('every machine yields @xstate.actor, @xstate.snapshot and @xstate.event records', async () => {
  const deferred = createDeferredActors();
  const clock = new SimulatedClock(); // the run arms a 900 s timer: never on the real clock
  const runs: Array<[string, (inspect: (e: InspectionEvent) => void) => void]> = [
    [
      'task',
      (inspect) => {
        const m = taskMachine.provide({ actors: { runTurn: deferred.logic() } });
        const actor = createActor(m, { clock, inspect, input: { taskId: 't' } }).start();
        actor.send({ type: 'USER_MESSAGE', message: { id: 'm', content: 'hi' } });
      },
    ],
    [
      'pluginUi',
      (inspect) => {
        createActor(pluginUiMachine, { clock, inspect }).start().send({ type: 'TASK_STATUS', status: 'running' });
      },
    ],
    [
      'pagePrep',
      (inspect) => {
        const m = pagePrepMachine.provide({
          actors: { captureScreenshot: deferred.logic(), extractReadability: deferred.logic() },
        });
        createActor(m, { clock, inspect, input: { taskId: 't', tabId: 1 } }).start();
      },
    ],
    [
      'run',
      (inspect) => {
        const m = runMachine.provide({ actors: { runStep: deferred.logic() } });
        const input = { runId: 'r', templateId: 't', steps: [{ stepId: 'a' }] };
        createActor(m, { clock, inspect, input }).start().send({ type: 'START' });
      },
    ],
    [
      'action',
      (inspect) => {
        const m = actionMachine.provide({ actions: { sendFrame: () => {} } });
        const input = { actionId: 'a', actionName: 'browser_click', params: {}, taskId: 't', clientId: 'c' };
        createActor(m, { clock, inspect, input }).start();
      },
    ],
  ];
  for (const [name, run] of runs) {
    const types = new Set<string>();
    run((e) => void types.add(e.type));
    await settle();
    for (const type of ['@xstate.actor', '@xstate.snapshot', '@xstate.event']) {
      assert.ok(types.has(type), `${name} emitted no ${type}`);
    }
  }
});

inspection.run();
