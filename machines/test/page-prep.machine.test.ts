// pagePrepMachine: seed 000 §4.5 retries and outcomes, concurrency, pure steps, and
// coverage. Paths from @xstate/graph check reachability on the pure model only: the
// two regions' timers run concurrently, so a graph order of delayed events need not be
// a possible order in time; the live scenarios below take every transition instead.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getShortestPaths } from '@xstate/graph';
import { createActor, initialTransition, SimulatedClock, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import {
  backoffBeforeRetry,
  pagePrepMachine,
  type CaptureInput,
  type PagePrepInput,
  type PagePrepOutput,
} from '../page-prep.machine.ts';
import { createCoverage, createDeferredActors, settle } from './util.ts';

const coverage = createCoverage(pagePrepMachine);
const shot = { artifactId: 'art-1', url: 'http://localhost:6006/api/artifacts/art-1', width: 1280, height: 800 };
const text = { text: 'Example Domain', title: 'Example', contentLengthBytes: 14, truncated: false };
const flaky = { code: 'PLUGIN_TIMEOUT_EXEC', message: 'no result', retryable: true };

function start(input: Partial<PagePrepInput> = {}) {
  const clock = new SimulatedClock();
  const deferred = createDeferredActors();
  const machine = pagePrepMachine.provide({
    actors: { captureScreenshot: deferred.logic(), extractReadability: deferred.logic() },
  });
  const actor = createActor(machine, {
    clock,
    input: { taskId: 'task-1', tabId: 42, ...input },
    inspect: coverage.inspect,
  });
  actor.start();
  const attempts = (id: string) =>
    deferred.calls.filter((c) => c.id === id).map((c) => (c.input as CaptureInput).attempt);
  const step = async (id: 'captureScreenshot' | 'extractReadability', outcome: 'ok' | unknown) => {
    if (outcome === 'ok') deferred.resolve(id, id === 'captureScreenshot' ? shot : text);
    else deferred.reject(id, outcome);
    await settle();
  };
  const tick = async (ms: number) => {
    clock.increment(ms);
    await settle();
  };
  return { actor, deferred, attempts, step, tick, output: () => actor.getSnapshot().output as PagePrepOutput };
}

const outcomes = suite('pagePrepMachine outcomes (seed 000 §4.5)');

outcomes('both captured at once -> ok', async () => {
  const t = start();
  assert.equal(
    t.deferred.calls.map((c) => [c.id, c.input]),
    [
      ['captureScreenshot', { taskId: 'task-1', tabId: 42, attempt: 1 }],
      ['extractReadability', { taskId: 'task-1', tabId: 42, attempt: 1 }],
    ],
    'both start concurrently',
  );
  await t.step('captureScreenshot', 'ok');
  await t.step('extractReadability', 'ok');
  assert.equal(t.output(), { status: 'ok', warnings: [], missing: [], screenshot: shot, readability: text });
});

outcomes('a failed capture is retried once after 500 ms and may then succeed', async () => {
  const t = start();
  await t.step('captureScreenshot', flaky);
  await t.tick(499);
  assert.equal(t.attempts('captureScreenshot'), [1], 'not before 500 ms');
  await t.tick(1);
  assert.equal(t.attempts('captureScreenshot'), [1, 2]);
  await t.step('captureScreenshot', 'ok');
  await t.step('extractReadability', 'ok');
  assert.is(t.output().status, 'ok');
});

outcomes('screenshot failing twice -> partial with warnings and missing ["screenshot"]', async () => {
  const t = start();
  await t.step('extractReadability', 'ok');
  await t.step('captureScreenshot', flaky);
  await t.tick(500);
  await t.step('captureScreenshot', { code: 'ARTIFACT_UPLOAD_FAILED', message: 'upload 500' });
  await t.tick(10_000);
  assert.equal(t.attempts('captureScreenshot'), [1, 2], 'exactly one retry');
  assert.equal(t.output(), {
    status: 'partial',
    warnings: ['screenshot failed after 2 attempt(s) (ARTIFACT_UPLOAD_FAILED: upload 500)'],
    missing: ['screenshot'],
    readability: text,
  });
});

outcomes('readability failing twice -> partial with missing ["readability"]', async () => {
  const t = start();
  await t.step('extractReadability', new Error('content script gone'));
  await t.step('captureScreenshot', 'ok');
  await t.tick(500);
  await t.step('extractReadability', new Error('content script gone'));
  assert.equal(t.output().status, 'partial');
  assert.equal(t.output().missing, ['readability']);
  assert.equal(t.output().warnings, ['readability failed after 2 attempt(s) (INTERNAL: content script gone)']);
  assert.equal(t.output().screenshot, shot);
});

outcomes('both failing -> PAGE_PREP_FAILED, retryable, with both causes', async () => {
  const t = start();
  await t.step('captureScreenshot', flaky);
  await t.step('extractReadability', flaky);
  await t.tick(500);
  assert.equal(t.attempts('captureScreenshot'), [1, 2]);
  assert.equal(t.attempts('extractReadability'), [1, 2]);
  await t.step('captureScreenshot', flaky);
  await t.step('extractReadability', flaky);
  const out = t.output();
  assert.is(out.status, 'failed');
  assert.equal(out.missing, ['screenshot', 'readability']);
  assert.equal(out.error, {
    code: 'PAGE_PREP_FAILED',
    message: 'screenshot and readability both failed',
    retryable: true,
    details: { screenshot: flaky, readability: flaky },
  });
});

outcomes('an error marked retryable:false is not retried', async () => {
  const t = start();
  await t.step('extractReadability', { code: 'READABILITY_TOO_LARGE', message: '3 MB', retryable: false });
  await t.step('captureScreenshot', 'ok');
  assert.equal(t.attempts('extractReadability'), [1]);
  assert.equal(t.output().missing, ['readability']);
});

outcomes.run();

const schedule = suite('pagePrepMachine retry schedule (input)');

schedule('backoffBeforeRetry reads the schedule, repeating its last value', () => {
  assert.equal(
    [1, 2, 3].map((n) => backoffBeforeRetry([500, 1_500], n)),
    [500, 1_500, 1_500],
  );
  assert.is(backoffBeforeRetry([], 1), 0);
});

schedule('maxRetries 2 with the default schedule waits 500 ms, then 1500 ms', async () => {
  const t = start({ maxRetries: 2 });
  await t.step('extractReadability', 'ok');
  await t.step('captureScreenshot', flaky);
  await t.tick(500);
  await t.step('captureScreenshot', flaky);
  await t.tick(1_499);
  assert.equal(t.attempts('captureScreenshot'), [1, 2]);
  await t.tick(1);
  assert.equal(t.attempts('captureScreenshot'), [1, 2, 3]);
  await t.step('captureScreenshot', flaky);
  assert.equal(t.output().missing, ['screenshot']);
});

schedule('maxRetries 0 fails a capture on its first error; a custom schedule is used', async () => {
  const none = start({ maxRetries: 0 });
  await none.step('captureScreenshot', flaky);
  await none.step('extractReadability', 'ok');
  assert.equal([none.attempts('captureScreenshot'), none.output().status], [[1], 'partial']);
  const custom = start({ backoffMs: [50] });
  await custom.step('extractReadability', flaky);
  await custom.tick(49);
  assert.equal(custom.attempts('extractReadability'), [1]);
  await custom.tick(1);
  assert.equal(custom.attempts('extractReadability'), [1, 2]);
});

schedule('RESTORED re-arms a backoff wait in both regions', async () => {
  const t = start();
  await t.step('captureScreenshot', flaky);
  await t.step('extractReadability', flaky);
  await t.tick(300);
  t.actor.send({ type: 'RESTORED' });
  await t.tick(499);
  assert.equal(t.attempts('captureScreenshot'), [1], 'the wait restarted from its full length');
  await t.tick(1);
  assert.equal(
    [t.attempts('captureScreenshot'), t.attempts('extractReadability')],
    [
      [1, 2],
      [1, 2],
    ],
  );
});

schedule.run();

const pure = suite('pagePrepMachine pure steps and reachability');

pure('initialTransition starts both captures with attempt 1', () => {
  const [snapshot, actions] = initialTransition(pagePrepMachine, { taskId: 't', tabId: 7 });
  assert.equal(snapshot.value, { preparing: { screenshot: 'capturing', readability: 'capturing' } });
  const spawns = actions
    .filter((a) => a.type === 'xstate.spawnChild')
    .map((a) => a.params as unknown as { src: string; input: unknown });
  assert.equal(
    spawns.map((p) => [p.src, p.input]),
    [
      ['captureScreenshot', { taskId: 't', tabId: 7, attempt: 1 }],
      ['extractReadability', { taskId: 't', tabId: 7, attempt: 1 }],
    ],
  );
});

pure('graph paths reach every state node', () => {
  const events = (s: AnyMachineSnapshot): AnyEventObject[] => {
    const list: AnyEventObject[] = [{ type: 'RESTORED' }];
    const regions = [
      ['screenshot', 'captureScreenshot', shot],
      ['readability', 'extractReadability', text],
    ] as const;
    for (const [region, id, output] of regions) {
      if (s.matches({ preparing: { [region]: 'capturing' } })) {
        list.push({ type: `xstate.done.actor.${id}`, output, actorId: id });
        list.push({ type: `xstate.error.actor.${id}`, error: flaky, actorId: id });
      }
      if (s.matches({ preparing: { [region]: 'backoff' } })) {
        const delay = region === 'screenshot' ? 'SCREENSHOT_BACKOFF' : 'READABILITY_BACKOFF';
        list.push({ type: `xstate.after.${delay}.pagePrep.preparing.${region}.backoff` });
      }
    }
    return list;
  };
  const paths = getShortestPaths(pagePrepMachine, {
    input: { taskId: 't', tabId: 7 },
    events: events as never,
    stopWhen: (s) => s.status !== 'active',
  });
  const reached = new Set(paths.flatMap((p) => (p.state as AnyMachineSnapshot)._nodes.map((n) => n.id)));
  const all = ['pagePrep', 'pagePrep.preparing', 'pagePrep.ok', 'pagePrep.partial', 'pagePrep.failed'];
  for (const region of ['screenshot', 'readability']) {
    for (const leaf of ['', '.capturing', '.backoff', '.captured', '.missing'])
      all.push(`pagePrep.preparing.${region}${leaf}`);
  }
  assert.equal([...reached].sort(), all.sort());
  const done = paths.filter((p) => p.state.status === 'done');
  const statuses = new Set(done.map((p) => (p.state.output as PagePrepOutput).status));
  assert.equal([...statuses].sort(), ['failed', 'ok', 'partial']);
});

pure.run();

const covered = suite('pagePrepMachine coverage');

covered('every state was active and every transition was taken on a live actor', () => {
  assert.equal(coverage.missingStates(), [], 'states never reached');
  assert.equal(coverage.missingTransitions(), [], 'transitions never taken');
});

covered.run();
