// The plugin-message fast path: it accepts the common v1 result with exactly the value valibot
// returns (same keys, same order), and everything else (malformed, hostile, other types) gets
// exactly the full check's answer, errors included.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as c from '../index.ts';
import { createRandom, type Random } from '../../codec/test/seeded-random.ts';
import { mutate } from '../../codec/test/mutate-input.ts';
import { resultMessage, TASK_ID, UUID_TASK_ID } from './util.ts';

const test = suite('plugin message fast path');

/** Same answer as the full valibot check, in value and in key order. */
function assertSameAsFull(input: unknown, label: string): c.PluginMessageValidation {
  const fast = c.validatePluginMessage(input);
  const full = c.validatePluginMessageFully(input);
  assert.equal(fast, full, label);
  assert.is(JSON.stringify(fast), JSON.stringify(full), `${label}: key order`);
  return fast;
}

const errorResult = () => ({
  ...resultMessage(),
  status: 'error',
  error: { code: 'PLUGIN_TIMEOUT_EXEC', message: 'took too long', retryable: true, details: { ms: 30_000 } },
});

const wellFormed: Array<[string, unknown]> = [
  ['success with a result', resultMessage()],
  ['success without a result', (({ result: _result, ...rest }) => rest)(resultMessage())],
  ['success with timestamp and traceId', { ...resultMessage(), timestamp: 1730000005000, traceId: 'trace-1' }],
  ['success with a UUID taskId', { ...resultMessage(), taskId: UUID_TASK_ID }],
  ['success with a lower-case ULID', { ...resultMessage(), taskId: TASK_ID.toLowerCase() }],
  [
    'success with unknown keys (dropped)',
    { ...resultMessage(), extra: 1, error: { code: 'X', message: 'ignored on success' } },
  ],
  [
    'success with nested values and binary',
    { ...resultMessage(), result: { nested: { a: [1, 2, { b: null }] }, bytes: new Uint8Array([1, 2]) } },
  ],
  ['error with details and retryable', errorResult()],
  [
    'error with a minimal error and a result',
    { ...errorResult(), error: { code: 'E', message: '' }, result: { partial: true } },
  ],
  [
    'keys in another order',
    JSON.parse(
      '{"status":"success","result":{"z":1,"a":2},"clientId":"p","taskId":"' +
        TASK_ID +
        '","actionId":"a","type":"browser_action_result","v":1}',
    ),
  ],
  [
    'result with __proto__, constructor and prototype keys',
    JSON.parse(
      '{"v":1,"type":"browser_action_result","actionId":"a","taskId":"' +
        TASK_ID +
        '","clientId":"p","status":"success","result":{"__proto__":{"polluted":true},"constructor":1,"prototype":2,"ok":3}}',
    ),
  ],
  [
    'error details with a __proto__ key',
    JSON.parse(
      '{"v":1,"type":"browser_action_result","actionId":"a","taskId":"' +
        TASK_ID +
        '","clientId":"p","status":"error","error":{"code":"E","message":"m","details":{"__proto__":1,"k":2}}}',
    ),
  ],
];

test('the fast path is enabled: the schema has exactly the fields it was written against', () => {
  assert.ok(
    c.pluginMessageFastPathEnabled,
    'BrowserActionResultMessageSchema changed: update transport/contracts/plugin-message-check.ts',
  );
});

test('well-formed v1 results take the fast path and come out exactly as valibot makes them', () => {
  for (const [label, input] of wellFormed) {
    assert.ok(c.fastActionResult(input) !== null, `${label}: fast path`);
    const checked = assertSameAsFull(input, label);
    assert.ok(checked.ok, label);
  }
  const polluted = c.validatePluginMessage(wellFormed[10]![1]);
  assert.ok(polluted.ok);
  if (polluted.ok) assert.equal(Object.getPrototypeOf((polluted.value as { result: object }).result), Object.prototype);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('the output is a copy: changing it leaves the input as received', () => {
  const input = resultMessage();
  const checked = c.validatePluginMessage(input);
  assert.ok(checked.ok);
  if (!checked.ok) return;
  (checked.value as { result: Record<string, unknown> }).result.clicked = false;
  assert.is(input.result.clicked, true);
  assert.is.not(checked.value, input);
});

const malformed: Array<[string, unknown]> = [
  ['not an object', 'hello'],
  ['null', null],
  ['an array', [resultMessage()]],
  ['v: 2', { ...resultMessage(), v: 2 }],
  ['v as a string', { ...resultMessage(), v: '1' }],
  ['empty actionId', { ...resultMessage(), actionId: '' }],
  ['numeric actionId', { ...resultMessage(), actionId: 7 }],
  ['placeholder taskId', { ...resultMessage(), taskId: '01HR...' }],
  ['missing clientId', { ...resultMessage(), clientId: undefined }],
  ['unknown status', { ...resultMessage(), status: 'maybe' }],
  ['error without error', { ...resultMessage(), status: 'error' }],
  ['error with an empty code', { ...errorResult(), error: { code: '', message: 'm' } }],
  ['error with retryable as a string', { ...errorResult(), error: { code: 'E', message: 'm', retryable: 'yes' } }],
  ['result as a string', { ...resultMessage(), result: 'done' }],
  ['result null', { ...resultMessage(), result: null }],
  ['negative timestamp', { ...resultMessage(), timestamp: -1 }],
  ['fractional timestamp', { ...resultMessage(), timestamp: 1.5 }],
  ['traceId as a number', { ...resultMessage(), traceId: 5 }],
  ['partial without warnings (not on the fast path)', { ...resultMessage(), status: 'partial' }],
  ['legacy result without status', { actionId: 'a1' }],
  ['tab_event of unknown eventType', { v: 1, type: 'tab_event', eventType: 'tab_exploded', timestamp: 1 }],
];

test("malformed input gets the full check's error, unchanged", () => {
  for (const [label, input] of malformed) {
    assert.is(c.fastActionResult(input), null, `${label}: not on the fast path`);
    const checked = assertSameAsFull(input, label);
    assert.not.ok(checked.ok, label);
    if (!checked.ok) assert.is(checked.error.code, 'SCHEMA_VALIDATION_FAILED');
  }
});

test("shapes valibot accepts but the fast path leaves to it (arrays as records, undefined optionals, partial, legacy) get valibot's answer", () => {
  for (const [label, input] of [
    ['result as an array', { ...resultMessage(), result: [1, 2] }],
    ['error details as an array', { ...errorResult(), error: { code: 'E', message: 'm', details: [1] } }],
    ['partial with warnings', { ...resultMessage(), status: 'partial', result: { warnings: ['no screenshot'] } }],
    ['legacy result', { actionId: 'a1', status: 'success' }],
    ['timestamp present but undefined', { ...resultMessage(), timestamp: undefined }],
  ] as const) {
    assert.is(c.fastActionResult(input), null, label);
    assert.ok(assertSameAsFull(input, label).ok, label);
  }
});

test("hostile input: a throwing getter or a proxy gets the full check's answer, never a throw", () => {
  const getter = { ...resultMessage() };
  Object.defineProperty(getter, 'actionId', {
    enumerable: true,
    get: () => {
      throw new Error('boom');
    },
  });
  const proxy = new Proxy(resultMessage(), {
    get: () => {
      throw new Error('trap');
    },
    has: () => {
      throw new Error('trap');
    },
  });
  for (const [label, input] of [
    ['getter', getter],
    ['proxy', proxy],
  ] as const) {
    const fast = c.validatePluginMessage(input);
    assert.equal(fast, c.validatePluginMessageFully(input), label);
    assert.not.ok(fast.ok, label);
  }
});

/** A random replacement for one field: wrong types, edge values, or nothing. */
function randomValue(random: Random): unknown {
  const pool: unknown[] = [
    undefined,
    null,
    '',
    'x',
    0,
    -1,
    1.5,
    2 ** 60,
    true,
    false,
    [],
    {},
    [1],
    { code: 'E' },
    { code: 'E', message: 'm' },
    'success',
    'error',
    'partial',
    'browser_action_result',
    1,
    2,
    TASK_ID,
    UUID_TASK_ID,
    { warnings: ['w'] },
    { warnings: [] },
  ];
  return random.pick(pool);
}

test('10,000 structural mutations of valid results: same answer as the full check', () => {
  const random = createRandom(14);
  const bases = [resultMessage, errorResult, () => ({ ...resultMessage(), timestamp: 5, traceId: 't' })];
  let fast = 0;
  for (let n = 0; n < 10_000; n++) {
    const input: Record<string, unknown> = random.pick(bases)();
    const keys = [...Object.keys(input), 'timestamp', 'traceId', 'error', 'result', 'extra'];
    for (let m = 0, count = 1 + random.int(3); m < count; m++) {
      const key = random.pick(keys);
      if (random.bool(0.2)) delete input[key];
      else if (key === 'error' && random.bool(0.5) && typeof input.error === 'object' && input.error !== null)
        (input.error as Record<string, unknown>)[random.pick(['code', 'message', 'retryable', 'details'])] =
          randomValue(random);
      else input[key] = randomValue(random);
    }
    if (c.fastActionResult(input) !== null) fast++;
    assertSameAsFull(input, `mutation ${n}: ${JSON.stringify(input)}`);
  }
  assert.ok(fast > 100, `the corpus reaches the fast path (${fast})`);
});

test('5,000 text mutations of result frames that still parse as JSON: same answer as the full check', () => {
  const random = createRandom(1414);
  const donors = [JSON.stringify(resultMessage()), JSON.stringify(errorResult())];
  let parsed = 0;
  for (let n = 0; parsed < 5_000 && n < 200_000; n++) {
    let input: unknown;
    try {
      input = JSON.parse(mutate(random, random.pick(donors), donors));
    } catch {
      continue;
    }
    parsed++;
    assertSameAsFull(input, `text mutation ${n}: ${JSON.stringify(input)}`);
  }
  assert.is(parsed, 5_000);
});

test.run();
