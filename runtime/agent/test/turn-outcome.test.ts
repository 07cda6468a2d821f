// The turn's failure fold (turn-outcome.ts), pure: which tool outcomes fail a turn, which clear
// an earlier failure, and how a load reads as a failure.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorValue } from '../../../machines/index.ts';
import { loadFailureOf, nextTurnFailure, stepLimitFailure } from '../turn-outcome.ts';

const fold = suite('turn outcome: the failure a turn ends on');
const err = (code: string) => errorValue(code, `${code} happened`);

fold('a failed tool is the failure; a later acting success clears it; reads do not', () => {
  let f = nextTurnFailure(null, 'browser_open', { ok: false, error: err('NAVIGATION_FAILED') });
  assert.is(f?.code, 'NAVIGATION_FAILED');
  f = nextTurnFailure(f, 'browser_screenshot', { ok: true });
  assert.is(f?.code, 'NAVIGATION_FAILED', 'a screenshot of the error does not undo it');
  f = nextTurnFailure(f, 'browser_read_page_text', { ok: true });
  assert.is(f?.code, 'NAVIGATION_FAILED');
  f = nextTurnFailure(f, 'browser_open', { ok: true, page: {} });
  assert.is(f, null, 'the agent recovered');
});

fold("stop, skipped calls and the model's own malformed call are not failures of the work", () => {
  for (const code of ['TASK_STOPPED', 'SKIPPED', 'SCHEMA_VALIDATION_FAILED']) {
    assert.is(nextTurnFailure(null, 'browser_click', { ok: false, error: err(code) }), null, code);
  }
  assert.is(
    nextTurnFailure(err('URL_BLOCKED'), 'browser_click', { ok: false, error: err('TASK_STOPPED') })?.code,
    'URL_BLOCKED',
  );
});

fold(
  'a step the person denied (issue 23) is their decision, not a failure: it neither fails the turn nor clears an earlier failure',
  () => {
    assert.is(
      nextTurnFailure(null, 'browser_click', { ok: false, error: err('CONFIRMATION_DENIED') }),
      null,
      'a denied last step leaves the turn completed',
    );
    assert.is(
      nextTurnFailure(err('URL_BLOCKED'), 'browser_click', { ok: false, error: err('CONFIRMATION_DENIED') })?.code,
      'URL_BLOCKED',
      'what failed before the denial still stands',
    );
    assert.is(
      nextTurnFailure(null, 'browser_click', { ok: false, error: err('CONFIRMATION_REQUIRED') })?.code,
      'CONFIRMATION_REQUIRED',
      'a step no one could confirm was not done: a failure',
    );
  },
);

fold('a page that loaded as an error page (HTTP 404) or not at all is a failure, even when the tool succeeded', () => {
  const notFound = loadFailureOf({ ok: true, result: { status: 'complete', httpStatus: 404 } }, 'http://x/missing');
  assert.equal(
    [notFound?.code, notFound?.details],
    ['NAVIGATION_FAILED', { httpStatus: 404, url: 'http://x/missing' }],
  );
  assert.is(loadFailureOf({ ok: true, result: { httpStatus: 200 } }, 'http://x/'), undefined);
  assert.is(loadFailureOf({ ok: false, error: err('NAVIGATION_TIMEOUT') }, 'http://x/')?.code, 'NAVIGATION_TIMEOUT');
  assert.is(
    nextTurnFailure(null, 'browser_open', { ok: true, page: { loadFailure: notFound } })?.code,
    'NAVIGATION_FAILED',
  );
});

fold('the step limit is a failure with its reason', () => {
  assert.equal(
    [stepLimitFailure(20).code, stepLimitFailure(20).details],
    ['EXECUTION_ERROR', { reason: 'step_limit', stepLimit: 20 }],
  );
});

fold.run();
