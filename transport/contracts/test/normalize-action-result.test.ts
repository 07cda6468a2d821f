// normalizeActionResult folds the v1 and legacy result formats into one shape.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as c from '../index.ts';
import { resultMessage, TASK_ID } from './util.ts';

/** Validate as the server does on receipt, then normalize. */
function receive(input: unknown): c.NormalizedActionResult {
  const parsed = c.validate(c.AnyBrowserActionResultSchema, input);
  if (!parsed.ok) throw new Error(`fixture rejected: ${parsed.error.message}`);
  return c.normalizeActionResult(parsed.value);
}

const v1 = suite('normalizeActionResult: v1 format');

v1('success keeps ids, status and result', () => {
  assert.equal(receive(resultMessage()), {
    actionId: 'act-001',
    taskId: TASK_ID,
    clientId: 'plugin-abc',
    status: 'success',
    result: { clicked: true, strategy: 'cdp_mouse' },
    format: 'v1',
  });
});

v1('error keeps the code and message and an explicit retryable', () => {
  const out = receive({
    ...resultMessage(),
    status: 'error',
    result: undefined,
    error: { code: 'INVALID_TARGET', message: 'no element with clickId 4', retryable: true },
  });
  assert.equal(out.error, { code: 'INVALID_TARGET', message: 'no element with clickId 4', retryable: true });
  assert.not.ok('result' in out);
});

v1('error without retryable gets the default from the table', () => {
  const retryable = receive({ ...resultMessage(), status: 'error', error: { code: 'CDP_UNAVAILABLE', message: 'x' } });
  const fatal = receive({ ...resultMessage(), status: 'error', error: { code: 'INVALID_TASK_TAB', message: 'x' } });
  const unknown = receive({ ...resultMessage(), status: 'error', error: { code: 'SOMETHING_NEW', message: 'x' } });
  assert.is(retryable.error?.retryable, true);
  assert.is(fatal.error?.retryable, false);
  assert.equal(unknown.error, { code: 'SOMETHING_NEW', message: 'x', retryable: false });
});

v1('error details pass through', () => {
  const out = receive({
    ...resultMessage(),
    status: 'error',
    error: { code: 'PLUGIN_ERROR', message: 'x', details: { step: 2 } },
  });
  assert.equal(out.error?.details, { step: 2 });
});

v1('partial keeps the warnings and has no error', () => {
  const out = receive({
    ...resultMessage(),
    status: 'partial',
    result: { warnings: ['screenshot failed'], markdown: '# t' },
  });
  assert.is(out.status, 'partial');
  assert.equal(out.result, { warnings: ['screenshot failed'], markdown: '# t' });
  assert.is(out.error, undefined);
});

v1.run();

const legacy = suite('normalizeActionResult: legacy format');

legacy('the seed example "timeout" becomes PLUGIN_TIMEOUT_EXEC, retryable', () => {
  assert.equal(receive({ actionId: 'act-001', status: 'error', error: 'timeout' }), {
    actionId: 'act-001',
    status: 'error',
    error: { code: 'PLUGIN_TIMEOUT_EXEC', message: 'timeout', retryable: true },
    format: 'legacy',
  });
});

legacy('other timeout wordings map to PLUGIN_TIMEOUT_EXEC too', () => {
  for (const text of ['Timed out after 10s', 'exec time-out', 'TIMEOUT']) {
    assert.is(receive({ actionId: 'a', status: 'error', error: text }).error?.code, 'PLUGIN_TIMEOUT_EXEC', text);
  }
});

legacy('a string that is a known code becomes that code, in any case', () => {
  assert.is(receive({ actionId: 'a', status: 'error', error: 'INVALID_TASK_TAB' }).error?.code, 'INVALID_TASK_TAB');
  assert.is(receive({ actionId: 'a', status: 'error', error: 'task tab closed' }).error?.code, 'TASK_TAB_CLOSED');
  const prep = receive({ actionId: 'a', status: 'error', error: 'page-prep-failed' }).error;
  assert.equal(prep, { code: 'PAGE_PREP_FAILED', message: 'page-prep-failed', retryable: true });
});

legacy('any other string becomes PLUGIN_ERROR with the string as message, not retryable', () => {
  assert.equal(receive({ actionId: 'a', status: 'error', error: 'element is detached' }).error, {
    code: 'PLUGIN_ERROR',
    message: 'element is detached',
    retryable: false,
  });
});

legacy('status error without any error still yields an error value', () => {
  const out = receive({ actionId: 'a', status: 'error' });
  assert.is(out.error?.code, 'PLUGIN_ERROR');
  assert.ok((out.error?.message.length ?? 0) > 0);
});

legacy('an empty error string still yields a readable message', () => {
  const out = receive({ actionId: 'a', status: 'error', error: '' });
  assert.is(out.error?.code, 'PLUGIN_ERROR');
  assert.ok((out.error?.message.length ?? 0) > 0);
});

legacy('an object error in legacy format is kept like v1', () => {
  const out = receive({ actionId: 'a', status: 'error', error: { code: 'NAVIGATION_TIMEOUT', message: 'slow' } });
  assert.equal(out.error, { code: 'NAVIGATION_TIMEOUT', message: 'slow', retryable: true });
});

legacy('success carries result and optional ids; a stray error is dropped', () => {
  const out = receive({
    actionId: 'a',
    taskId: 't-1',
    clientId: 'p',
    status: 'success',
    result: { stopped: true },
    error: 'ignored',
  });
  assert.equal(out, {
    actionId: 'a',
    taskId: 't-1',
    clientId: 'p',
    status: 'success',
    result: { stopped: true },
    format: 'legacy',
  });
});

legacy.run();
