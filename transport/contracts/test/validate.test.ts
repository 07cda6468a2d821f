// validate(): result values, custom codes, readable messages, never a throw.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as c from '../index.ts';
import { browserAction, userMessage } from './util.ts';

const s = suite('validate');

s('returns the parsed value on success', () => {
  const result = c.validate(c.FrontendMessageSchema, { ...userMessage(), extra: 'dropped' });
  assert.ok(result.ok);
  if (result.ok) assert.equal(result.value, userMessage());
});

s('defaults to BAD_REQUEST and accepts another code', () => {
  const bad = c.validate(c.TaskIdSchema, 'nope');
  const schema = c.validate(c.BrowserActionSchema, browserAction({ browser_click: {} }), 'SCHEMA_VALIDATION_FAILED');
  assert.is(!bad.ok && bad.error.code, 'BAD_REQUEST');
  assert.is(!schema.ok && schema.error.code, 'SCHEMA_VALIDATION_FAILED');
});

s('reports every problem, and the message names the first three fields', () => {
  const result = c.validate(c.FrontendMessageSchema, { v: 1, type: 'user_message' });
  assert.not.ok(result.ok);
  if (result.ok) return;
  assert.equal(result.error.fieldErrors.map((e) => e.field).sort(), ['content', 'id', 'taskId', 'timestamp']);
  assert.match(result.error.message, /^invalid input: \w+ is required; \w+ is required; \w+ is required; and 1 more$/);
});

s('a version mismatch reads as one clear sentence', () => {
  const result = c.validate(c.FrontendMessageSchema, { ...userMessage(), v: 2 });
  assert.is(
    !result.ok && result.error.message,
    'invalid input: v: unsupported protocol version 2; this server speaks v1',
  );
});

s('never throws, even on hostile input', () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('boom');
      },
      has() {
        throw new Error('boom');
      },
      ownKeys() {
        throw new Error('boom');
      },
    },
  );
  for (const input of [undefined, null, 0, NaN, '', [], hostile, Object.create(null), () => 1, Symbol('x'), 10n]) {
    for (const schema of [
      c.FrontendMessageSchema,
      c.IncomingPluginMessageSchema,
      c.BrowserActionSchema,
      c.FrontendEventSchema,
    ]) {
      const result = c.validate(schema, input);
      assert.is(result.ok, false);
      if (!result.ok) assert.ok(result.error.fieldErrors.length > 0);
    }
  }
});

s('a root-level problem has the empty field', () => {
  const result = c.validate(c.FrontendEventSchema, 42);
  assert.equal(!result.ok && result.error.fieldErrors.map((e) => e.field), ['']);
});

s.run();

const ids = suite('ids');

ids('TaskIdSchema accepts ULIDs and UUIDs of any version and case', () => {
  for (const id of [
    '01HRZ8Q3K9V2M4N6P8R0S2T4V6',
    '01hrz8q3k9v2m4n6p8r0s2t4v6',
    '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
    'c9a646d3-9c61-4cb7-bfcd-ee2522c8f633',
    'C9A646D3-9C61-4CB7-BFCD-EE2522C8F633',
    '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
    '01890a5d-ac96-774b-bcce-b302099a8057',
    '00000000-0000-0000-0000-000000000000',
  ]) {
    assert.ok(c.validate(c.TaskIdSchema, id).ok, id);
  }
});

ids('TaskIdSchema rejects everything else', () => {
  for (const id of [
    '',
    '01HR...',
    '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', // overflows 128 bits
    '01HRZ8Q3K9V2M4N6P8R0S2T4VI', // I is not Crockford
    '01HRZ8Q3K9V2M4N6P8R0S2T4V', // 25 chars
    'c9a646d3-9c61-4cb7-bfcd-ee2522c8f63', // short
    '{c9a646d3-9c61-4cb7-bfcd-ee2522c8f633}',
    ' 01HRZ8Q3K9V2M4N6P8R0S2T4V6',
    'plugin-abc',
  ]) {
    assert.not.ok(c.validate(c.TaskIdSchema, id).ok, id);
  }
  assert.not.ok(c.validate(c.TaskIdSchema, 123).ok);
});

ids.run();

const envelopes = suite('envelope helpers');

envelopes('okEnvelope and errorEnvelope build valid envelopes', () => {
  const ok = c.okEnvelope({ taskId: '01HRZ8Q3K9V2M4N6P8R0S2T4V6' });
  assert.ok(c.validate(c.envelopeSchema(c.TaskIdResponseSchema), ok).ok);
  const error = c.errorEnvelope('UNAVAILABLE', 'no extension connected', {
    retryable: true,
    context: { taskId: 't' },
    fieldErrors: [{ field: 'clientId', message: 'unknown' }],
  });
  assert.equal(error, {
    ok: false,
    error: {
      code: 'UNAVAILABLE',
      message: 'no extension connected',
      details: { retryable: true, context: { taskId: 't' }, fieldErrors: [{ field: 'clientId', message: 'unknown' }] },
    },
  });
  assert.ok(c.validate(c.ErrorEnvelopeSchema, error).ok);
  assert.equal(c.errorEnvelope('NOT_FOUND', 'gone'), { ok: false, error: { code: 'NOT_FOUND', message: 'gone' } });
});

envelopes('an ok envelope whose data is wrong is rejected at data.*', () => {
  const result = c.validate(c.envelopeSchema(c.TaskIdResponseSchema), { ok: true, data: { taskId: 'x' } });
  assert.equal(!result.ok && result.error.fieldErrors.map((e) => e.field), ['data.taskId']);
});

envelopes('HTTP status per code follows seed 001 §0.3', () => {
  assert.equal(
    c.httpErrorCodes.map((code) => c.httpStatusByCode[code]),
    [400, 404, 409, 401, 403, 429, 500, 503],
  );
});

envelopes.run();
