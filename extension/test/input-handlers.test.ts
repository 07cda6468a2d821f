// The issue 13 input handlers against the fake browser: check (clicks only when needed, reads
// the state back, refuses what the page refuses), select, press (chords; bad keys send nothing),
// dblclick. Their behaviour on real pages is in test/e2e/corpus-*.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ActionName, ActionParamsMap } from '../../transport/contracts/index.ts';
import { ActionFailure } from '../background/action-failure.ts';
import { actionHandlers } from '../background/action-handlers.ts';
import {
  answerPageOps,
  browserAction,
  contextFor,
  testServices,
  withTaskTab,
  type TestServices,
} from './fakes/fake-services.ts';

function run<K extends ActionName>(services: TestServices, name: K, params: ActionParamsMap[K]) {
  const handler = actionHandlers[name] as (p: unknown, c: unknown) => Promise<Record<string, any>>;
  return handler(params, contextFor(services, browserAction(name, params)));
}

async function failure(promise: Promise<unknown>): Promise<ActionFailure['error']> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(error, ActionFailure, `expected an ActionFailure, got ${String(error)}`);
  return (error as ActionFailure).error;
}

function pageWithButton(services: TestServices) {
  answerPageOps(services.browser, (op) =>
    op === 'locate'
      ? { ok: true, x: 40, y: 20, tag: 'label', opensNewTab: false, mac: false, submitsForm: false }
      : undefined,
  );
}

const more = suite('browser_check / browser_select / browser_press / browser_dblclick');

/** A page with one checkbox whose click toggles it unless `refuses`. */
function pageWithCheckbox(
  services: TestServices,
  options: { checked?: boolean; refuses?: boolean; radio?: boolean } = {},
) {
  let checked = options.checked ?? false;
  const ops: string[] = [];
  answerPageOps(services.browser, (op) => {
    ops.push(op);
    if (op === 'checkState') return { ok: true, checked, kind: options.radio ? 'radio' : 'checkbox' };
    if (op === 'locate') {
      if (!options.refuses) checked = !checked; // the CDP click that follows toggles it
      return { ok: true, x: 10, y: 10, tag: 'input', opensNewTab: false, mac: false, via: 'label', submitsForm: false };
    }
    return undefined;
  });
  return { ops, checked: () => checked };
}

more('check clicks only when needed and reads the state back; a refused click is INVALID_TARGET', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  const box = pageWithCheckbox(services);
  const done = await run(services, 'browser_check', { tabId: 7, xpath: '//input' });
  assert.equal([done.checked, done.changed, done.strategy], [true, true, 'cdp_mouse']);
  assert.match(done.warnings[0], /clicked its label/);
  assert.is(services.browser.cdpCommands.filter((c) => c.method === 'Input.dispatchMouseEvent').length, 2);
  const again = await run(services, 'browser_check', { tabId: 7, xpath: '//input' });
  assert.equal([again.checked, again.changed], [true, false]);
  assert.is(
    services.browser.cdpCommands.filter((c) => c.method === 'Input.dispatchMouseEvent').length,
    2,
    'nothing clicked the second time',
  );
  assert.is(box.checked(), true);

  const refusing = testServices();
  await withTaskTab(refusing, 7);
  pageWithCheckbox(refusing, { refuses: true });
  const refused = await failure(run(refusing, 'browser_check', { tabId: 7, xpath: '//input' }));
  assert.equal([refused.code, refused.details?.reason], ['INVALID_TARGET', 'state_unchanged']);

  const radio = testServices();
  await withTaskTab(radio, 7);
  const radioPage = pageWithCheckbox(radio, { checked: true, radio: true });
  const unchecking = await failure(run(radio, 'browser_check', { tabId: 7, xpath: '//input', checked: false }));
  assert.match(unchecking.message, /cannot be unchecked/);
  assert.not.ok(radioPage.ops.includes('locate'), 'nothing was clicked');
});

more('select passes the values to the page and reports what the page selected', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  const seen: unknown[] = [];
  answerPageOps(services.browser, (op, args) => {
    if (op !== 'selectOptions') return undefined;
    seen.push(args.values);
    return args.values[0] === 'Zebra'
      ? { ok: false, reason: 'not_found', message: 'no option "Zebra"' }
      : { ok: true, selected: ['dog'], labels: ['Dog'], changed: true };
  });
  assert.equal(await run(services, 'browser_select', { tabId: 7, xpath: '//select', values: ['Dog'] }), {
    selected: ['dog'],
    labels: ['Dog'],
    navigated: false,
  });
  const missing = await failure(run(services, 'browser_select', { tabId: 7, xpath: '//select', values: ['Zebra'] }));
  assert.equal([missing.code, missing.details?.reason], ['INVALID_TARGET', 'not_found']);
  assert.equal(seen, [['Dog'], ['Zebra']]);
});

more('press sends the chord as key events; an unknown key is refused before anything is sent', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  answerPageOps(services.browser, (op) =>
    op === 'focusForKeys'
      ? { ok: true, tag: 'input', mac: false }
      : op === 'formValidity'
        ? { ok: true, invalid: [] }
        : undefined,
  );
  const pressed = await run(services, 'browser_press', { tabId: 7, key: 'Control+A' });
  assert.equal([pressed.pressed, pressed.strategy], ['Control+A', 'cdp_key']);
  const keys = services.browser.cdpCommands
    .filter((c) => c.method === 'Input.dispatchKeyEvent')
    .map((c) => `${c.params.type}:${c.params.key}:${c.params.modifiers}`);
  assert.equal(keys, ['rawKeyDown:Control:2', 'rawKeyDown:A:2', 'keyUp:A:2', 'keyUp:Control:0']);
  const before = services.browser.cdpCommands.length;
  const bad = await failure(run(services, 'browser_press', { tabId: 7, key: 'Hyper+Q' }));
  assert.is(bad.code, 'SCHEMA_VALIDATION_FAILED');
  assert.is(services.browser.cdpCommands.length, before, 'nothing was sent');
});

more('dblclick presses twice at the point, clickCount 1 then 2', async () => {
  const services = testServices();
  await withTaskTab(services, 7);
  pageWithButton(services);
  const done = await run(services, 'browser_dblclick', { tabId: 7, xpath: '//label' });
  assert.equal([done.dblclicked, done.strategy], [true, 'cdp_mouse']);
  const mouse = services.browser.cdpCommands
    .filter((c) => c.method === 'Input.dispatchMouseEvent')
    .map((c) => `${c.params.type}:${c.params.clickCount}`);
  assert.equal(mouse, ['mousePressed:1', 'mouseReleased:1', 'mousePressed:2', 'mouseReleased:2']);
});

more.run();
