// The action catalog: every action has params, result, a timeout; examples from seed 000 §4.2 parse.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as c from '../index.ts';
import { browserAction } from './util.ts';

const paramsExamples: { [K in c.ActionName]: c.ActionParams<K> } = {
  task_start: { url: 'https://example.com/', reuseExistingTab: false, groupTitle: 'Mimo' },
  browser_debugger_attach: { tabId: 12 },
  task_stop: { closeTab: true },
  browser_wait_for_loaded: { tabId: 12, timeoutMs: 15_000 },
  browser_screenshot: { tabId: 12, fullPage: true },
  browser_readability_extract: { tabId: 12 },
  browser_dom_index: { tabId: 12, scope: 'viewport', assignAttr: 'data-mimo_click_id' },
  browser_xpath_scan: { tabId: 12, scope: 'document' },
  browser_click: { tabId: 12, clickId: 4, strategy: 'cdp_mouse' },
  browser_type: { tabId: 12, xpath: '//input[@name="q"]', text: 'mimo', submit: true, strategy: 'dom_input' },
  browser_get_html: { tabId: 12, xpath: '//main' },
  browser_switch_tab: { tabId: 13 },
  browser_select: { tabId: 12, clickId: 5, values: ['Dog', 'parrot'] },
  browser_check: { tabId: 12, xpath: '//input[@id="power"]', checked: false },
  browser_hover: { tabId: 12, clickId: 6 },
  browser_dblclick: { tabId: 12, clickId: 7, strategy: 'cdp_mouse' },
  browser_focus: { tabId: 12, clickId: 8 },
  browser_press: { tabId: 12, key: 'Control+A' },
};

const resultExamples: { [K in c.ActionName]: c.ActionResult<K> } = {
  task_start: { tabId: 12, windowId: 1, groupId: 7, url: 'https://example.com/', title: 'Example' },
  browser_debugger_attach: { attached: true },
  task_stop: { stopped: true },
  browser_wait_for_loaded: { status: 'complete' },
  browser_screenshot: {
    artifactId: 'art-1',
    url: 'http://localhost:6006/api/artifacts/art-1',
    width: 1280,
    height: 800,
  },
  browser_readability_extract: { artifactId: 'art-2', title: 'Example', contentLengthBytes: 300_000, truncated: true },
  browser_dom_index: {
    elements: [{ clickId: 1, tag: 'a', text: 'More', xpath: '/html/body/a', bbox: { x: 1, y: 2, w: 3, h: 4 } }],
  },
  browser_xpath_scan: { elements: [{ xpath: '/html/body/a', tag: 'a', clickId: 1 }] },
  browser_click: { clicked: true, strategy: 'dom_click', warnings: ['CDP unavailable, fell back to dom_click'] },
  browser_type: { typed: true, strategy: 'cdp_key' },
  browser_get_html: { artifactId: 'art-3', url: 'http://localhost:6006/api/artifacts/art-3' },
  browser_switch_tab: { tabId: 13, url: 'https://example.org/', title: 'Other' },
  browser_select: { selected: ['dog', 'parrot'], labels: ['Dog', 'Parrot'] },
  browser_check: { checked: false, changed: true, strategy: 'cdp_mouse' },
  browser_hover: { hovered: true, strategy: 'cdp_mouse' },
  browser_dblclick: { dblclicked: true, strategy: 'cdp_mouse', navigated: false },
  browser_focus: { focused: true },
  browser_press: {
    pressed: 'Enter',
    strategy: 'cdp_key',
    navigated: true,
    navigation: { url: 'https://example.org/next', sameDocument: false, committed: true, httpStatus: 200 },
  },
};

const catalog = suite('action catalog');

catalog('covers seed 000 §4.2 plus browser_switch_tab, in every table', () => {
  const names = [...c.actionNames].sort();
  assert.is(names.length, 18);
  assert.ok(names.includes('browser_switch_tab'));
  assert.equal(Object.keys(c.actionParamsSchemas).sort(), names);
  assert.equal(Object.keys(c.actionResultSchemas).sort(), names);
  assert.equal(Object.keys(c.defaultExecTimeoutMs).sort(), names);
});

for (const name of c.actionNames) {
  catalog(`${name}: example params and result parse unchanged, and travel inside browser_action`, () => {
    const params = c.validate(c.actionParamsSchemas[name], paramsExamples[name]);
    const result = c.validate(c.actionResultSchemas[name], resultExamples[name]);
    assert.equal(params.ok && params.value, paramsExamples[name]);
    assert.equal(result.ok && result.value, resultExamples[name]);
    const message = c.validate(c.BrowserActionSchema, browserAction(c.packActionCall(name, paramsExamples[name])));
    assert.ok(message.ok);
    if (message.ok) assert.equal(c.unpackActionCall(message.value.action), { name, params: paramsExamples[name] });
  });
}

catalog('task_stop takes empty params; results reject a false flag', () => {
  assert.ok(c.validate(c.actionParamsSchemas.task_stop, {}).ok);
  assert.not.ok(c.validate(c.actionResultSchemas.browser_click, { clicked: false, strategy: 'dom_click' }).ok);
  assert.not.ok(c.validate(c.actionResultSchemas.browser_wait_for_loaded, { status: 'loading' }).ok);
});

catalog('default T_exec follows seed 001 §4.1 (switch tab 5 s)', () => {
  assert.equal(c.defaultExecTimeoutMs, {
    task_start: 20_000,
    browser_debugger_attach: 5_000,
    browser_wait_for_loaded: 20_000,
    browser_screenshot: 10_000,
    browser_readability_extract: 10_000,
    browser_dom_index: 10_000,
    browser_xpath_scan: 10_000,
    browser_click: 5_000,
    browser_type: 10_000,
    browser_get_html: 10_000,
    task_stop: 5_000,
    browser_switch_tab: 5_000,
    browser_check: 5_000,
    browser_hover: 5_000,
    browser_dblclick: 5_000,
    browser_focus: 5_000,
    browser_select: 10_000,
    browser_press: 10_000,
  });
});

catalog('the targeted input actions need clickId or xpath; press may go to the focused element', () => {
  for (const name of [
    'browser_select',
    'browser_check',
    'browser_hover',
    'browser_dblclick',
    'browser_focus',
  ] as const) {
    const checked = c.validate(c.actionParamsSchemas[name], { tabId: 1, values: [] });
    assert.not.ok(checked.ok, name);
    if (!checked.ok) assert.match(checked.error.message, /needs a target/);
  }
  assert.ok(c.validate(c.actionParamsSchemas.browser_press, { tabId: 1, key: 'Tab' }).ok);
  assert.not.ok(c.validate(c.actionParamsSchemas.browser_press, { tabId: 1, key: '' }).ok);
});

catalog('only read-only actions are idempotent', () => {
  const idempotent = c.actionNames.filter((name) => c.isIdempotentAction(name)).sort();
  assert.equal(idempotent, [
    'browser_dom_index',
    'browser_get_html',
    'browser_readability_extract',
    'browser_screenshot',
    'browser_wait_for_loaded',
    'browser_xpath_scan',
  ]);
});

catalog.run();

const errors = suite('error codes');

errors('retryable defaults follow seed 000 §5.1', () => {
  for (const code of [
    'PLUGIN_OFFLINE',
    'PLUGIN_TIMEOUT_ACK',
    'PLUGIN_TIMEOUT_EXEC',
    'PAGE_PREP_FAILED',
    'CDP_UNAVAILABLE',
  ] as const) {
    assert.is(c.retryableByDefault[code], true, code);
  }
  for (const code of [
    'INVALID_TASK_TAB',
    'INVALID_TARGET',
    'READABILITY_TOO_LARGE',
    'SCHEMA_VALIDATION_FAILED',
  ] as const) {
    assert.is(c.retryableByDefault[code], false, code);
  }
  assert.equal(Object.keys(c.retryableByDefault).sort(), [...c.actionErrorCodes].sort());
});

errors('protocolError fills retryable from the table unless given', () => {
  assert.equal(c.protocolError('PLUGIN_OFFLINE', 'connect the extension'), {
    code: 'PLUGIN_OFFLINE',
    message: 'connect the extension',
    retryable: true,
  });
  assert.is(c.protocolError('PAGE_PREP_FAILED', 'x', { retryable: false }).retryable, false);
  assert.is(c.protocolError('LLM_RATE_LIMIT', 'x').retryable, false);
  assert.ok(c.validate(c.ProtocolErrorSchema, c.protocolError('INVALID_TARGET', 'x', { details: { clickId: 4 } })).ok);
});

errors('isKnownErrorCode knows every list and nothing else', () => {
  assert.ok(c.isKnownErrorCode('BAD_REQUEST'));
  assert.ok(c.isKnownErrorCode('TASK_TAB_CLOSED'));
  assert.ok(c.isKnownErrorCode('ELEMENT_NOT_FOUND'));
  assert.ok(c.isKnownErrorCode('RUN_CANCELED'));
  assert.not.ok(c.isKnownErrorCode('bad_request'));
  assert.not.ok(c.isKnownErrorCode('TOTALLY_NEW'));
});

errors.run();

const tools = suite('tool result');

tools('helpers build the seed 000 §5 shapes', () => {
  const ok = c.toolResultOk('call-1', 'browser_action', { tabId: 3 }, { warnings: ['w'], missing: ['screenshot'] });
  assert.equal(ok, {
    toolCallId: 'call-1',
    name: 'browser_action',
    ok: true,
    result: { tabId: 3 },
    warnings: ['w'],
    missing: ['screenshot'],
  });
  assert.equal(c.toolResultOk('call-1', 'browser_action', {}), {
    toolCallId: 'call-1',
    name: 'browser_action',
    ok: true,
    result: {},
    warnings: [],
  });
  const failed = c.toolResultError(
    'call-2',
    'browser_switch_tab',
    c.protocolError('INVALID_TASK_TAB', "tab 99 is not one of this task's tabs"),
  );
  assert.ok(c.validate(c.ToolResultSchema, failed).ok);
  assert.ok(c.validate(c.ToolResultSchema, ok).ok);
});

tools.run();
