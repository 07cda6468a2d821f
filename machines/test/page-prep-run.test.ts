// runPagePrep: pagePrepMachine's policy as the task actor runs it (one promise, no actor).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPagePrep, type PagePrepWork } from '../page-prep-run.ts';
import type { CaptureInput, ReadabilityCapture, ScreenshotCapture } from '../page-prep.machine.ts';

const test = suite('runPagePrep');

const shot: ScreenshotCapture = { artifactId: 'a1', url: 'http://x/a1.png', width: 1280, height: 800 };
const text: ReadabilityCapture = { text: 'hello', title: 'T' };
const fail = (code: string, retryable?: boolean) => ({
  code,
  message: code,
  ...(retryable !== undefined ? { retryable } : {}),
});

/** Captures that answer from a script per try; the waits are recorded (no time passes). */
function work(script: { screenshot: unknown[]; readability: unknown[] }) {
  const calls: Array<[string, CaptureInput]> = [];
  const waits: number[] = [];
  const next = (part: 'screenshot' | 'readability', input: CaptureInput) => {
    calls.push([part, input]);
    const answer = script[part].shift();
    return answer instanceof Error || (typeof answer === 'object' && answer !== null && 'code' in answer)
      ? Promise.reject(answer)
      : Promise.resolve(answer);
  };
  const w: PagePrepWork = {
    captureScreenshot: (input) => next('screenshot', input) as Promise<ScreenshotCapture>,
    extractReadability: (input) => next('readability', input) as Promise<ReadabilityCapture>,
    wait: async (ms) => void waits.push(ms),
  };
  return { w, calls, waits };
}

test('both captured at once: ok, each tried once with its attempt number and the prep id', async () => {
  const { w, calls, waits } = work({ screenshot: [shot], readability: [text] });
  const out = await runPagePrep({ taskId: 't', tabId: 3, prepId: 'p1' }, w);
  assert.equal(out, { status: 'ok', warnings: [], missing: [], screenshot: shot, readability: text });
  assert.equal(calls, [
    ['screenshot', { taskId: 't', tabId: 3, prepId: 'p1', attempt: 1 }],
    ['readability', { taskId: 't', tabId: 3, prepId: 'p1', attempt: 1 }],
  ]);
  assert.equal(waits, []);
});

test('a failed capture is retried once after the first backoff (default schedule 500 ms)', async () => {
  const { w, calls, waits } = work({ screenshot: [fail('PLUGIN_TIMEOUT_EXEC', true), shot], readability: [text] });
  const out = await runPagePrep({ taskId: 't', tabId: 3 }, w);
  assert.is(out.status, 'ok');
  assert.equal(waits, [500]);
  assert.equal(
    calls.filter(([part]) => part === 'screenshot').map(([, input]) => input.attempt),
    [1, 2],
  );
});

test('one capture missing after its retries: partial, with the cause; the schedule repeats its last value', async () => {
  const { w, waits } = work({
    screenshot: [shot],
    readability: [fail('INTERNAL'), fail('INTERNAL'), fail('INTERNAL', true)],
  });
  const out = await runPagePrep({ taskId: 't', tabId: 3, maxRetries: 2, backoffMs: [20] }, w);
  assert.is(out.status, 'partial');
  assert.equal(out.missing, ['readability']);
  assert.equal(out.warnings, ['readability failed after 3 attempt(s) (INTERNAL: INTERNAL)']);
  assert.equal(waits, [20, 20]);
});

test('an error marked retryable: false is not retried; both missing: failed with PAGE_PREP_FAILED', async () => {
  const { w, calls } = work({
    screenshot: [fail('PLUGIN_OFFLINE', true), fail('PLUGIN_OFFLINE', true)],
    readability: [fail('READABILITY_TOO_LARGE', false)],
  });
  const out = await runPagePrep({ taskId: 't', tabId: 3 }, w);
  assert.is(out.status, 'failed');
  assert.is(out.error?.code, 'PAGE_PREP_FAILED');
  assert.equal(
    calls.map(([part]) => part),
    ['screenshot', 'readability', 'screenshot'],
  );
  assert.equal(out.missing, ['screenshot', 'readability']);
});

test('maxRetries 0: one try each', async () => {
  const { w, calls } = work({ screenshot: [fail('INTERNAL', true)], readability: [text] });
  const out = await runPagePrep({ taskId: 't', tabId: 3, maxRetries: 0 }, w);
  assert.is(out.status, 'partial');
  assert.is(calls.length, 2);
});

test.run();
