import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { FrontendMessageSchema } from '../../transport/contracts/frontend-message.ts';
import { toAckResult } from '../src/io/ack.ts';
import { createApiClient } from '../src/io/api-client.ts';
import { createMessageFactory } from '../src/io/frontend-messages.ts';
import { createSocketLink, type LinkStatus, type SocketLike } from '../src/io/socket-link.ts';
import { fetchTokenCheck, resolveToken, settleOfferedToken, TOKEN_STORAGE_KEY } from '../src/io/token.ts';
import { delta, envelope, summary, TASK_A } from './util.ts';

const api = suite('io: HTTP API client');

function fakeFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string> });
    return respond(url, init);
  }) as unknown as typeof fetch;
  return { fn, seen };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

api('sends the bearer token and protocol header; returns validated data', async () => {
  const f = fakeFetch(() => json({ ok: true, data: [summary(TASK_A)] }));
  const client = createApiClient({ fetch: f.fn, baseUrl: 'http://h:6006/', token: 'secret' });
  const result = await client.listTasks();
  assert.ok(result.ok);
  assert.is(result.data[0]?.taskId, TASK_A);
  assert.is(f.seen[0]?.url, 'http://h:6006/api/task/list');
  assert.is(f.seen[0]?.headers.Authorization, 'Bearer secret');
  assert.is(f.seen[0]?.headers['X-Mimo-Protocol'], '1');
});

api('listTaskPage asks for one page with limit and cursor and checks { tasks, nextCursor }', async () => {
  const f = fakeFetch(() => json({ ok: true, data: { tasks: [summary(TASK_A)], nextCursor: 'c/1=' } }));
  const client = createApiClient({ fetch: f.fn });
  const first = await client.listTaskPage(50);
  assert.ok(first.ok && first.data.nextCursor === 'c/1=' && first.data.tasks[0]?.taskId === TASK_A);
  await client.listTaskPage(50, 'c/1=');
  assert.equal(
    f.seen.map((s) => s.url),
    ['/api/task/list?limit=50', '/api/task/list?limit=50&cursor=c%2F1%3D'],
  );
  const wrong = await createApiClient({
    fetch: fakeFetch(() => json({ ok: true, data: [summary(TASK_A)] })).fn,
  }).listTaskPage(50);
  assert.is(wrong.ok ? 'ok' : wrong.error.code, 'INTERNAL', 'the whole-array shape is not a page');
});

api('error envelopes, wrong shapes, non-JSON and network failures are values', async () => {
  const cases: [Response | Error, string][] = [
    [
      json({ ok: false, error: { code: 'NOT_FOUND', message: 'no task', details: { retryable: false } } }, 404),
      'NOT_FOUND',
    ],
    [json({ ok: true, data: [{ taskId: 'not-an-id' }] }), 'INTERNAL'],
    [new Response('<html>bad gateway</html>', { status: 502 }), 'INTERNAL'],
    [new Response('nope', { status: 401 }), 'UNAUTHORIZED'],
    [new TypeError('fetch failed'), 'UNAVAILABLE'],
  ];
  for (const [answer, code] of cases) {
    const f = fakeFetch(() => {
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const result = await createApiClient({ fetch: f.fn }).listTasks();
    assert.is(result.ok, false);
    if (!result.ok) assert.is(result.error.code, code, result.error.message);
  }
  const noToken = fakeFetch(() => json({ ok: true, data: { taskId: TASK_A } }));
  await createApiClient({ fetch: noToken.fn }).getTask('a/b');
  assert.is(noToken.seen[0]?.url, '/api/task/a%2Fb');
  assert.is(noToken.seen[0]?.headers.Authorization, undefined);
});

const socket = suite('io: socket link');

class FakeSocket implements SocketLike {
  connected = false;
  active = true;
  connects = 0;
  handlers = new Map<string, ((...args: any[]) => void)[]>();
  managerHandlers = new Map<string, ((...args: any[]) => void)[]>();
  emitted: unknown[][] = [];
  answer: (...args: unknown[]) => Promise<unknown> = async () => ({ ok: true });
  io = {
    on: (event: string, l: (...args: any[]) => void) =>
      void this.managerHandlers.set(event, [...(this.managerHandlers.get(event) ?? []), l]),
  };
  connect() {
    this.connects += 1;
  }
  disconnect() {}
  on(event: string, l: (...args: any[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), l]);
  }
  timeout(_ms: number) {
    return {
      emitWithAck: (event: string, ...args: unknown[]) => (this.emitted.push([event, ...args]), this.answer(...args)),
    };
  }
  fire(event: string, ...args: unknown[]) {
    this.handlers.get(event)?.forEach((l) => l(...args));
  }
}

function linkSetup() {
  const fake = new FakeSocket();
  const timers: (() => void)[] = [];
  const invalid: string[] = [];
  const link = createSocketLink({
    socket: fake,
    setTimeout: (fn) => timers.push(fn),
    onInvalidEvent: (issue) => invalid.push(issue),
  });
  const statuses: LinkStatus[] = [];
  link.onStatus((s) => statuses.push(s));
  return { fake, link, timers, invalid, statuses };
}

socket('validates frontend_event and drops what does not match the contract', () => {
  const { fake, link, invalid } = linkSetup();
  const got: string[] = [];
  link.onEvent((e) => got.push(e.event.type));
  fake.fire('frontend_event', envelope(delta('evt-u1', 'hi'), TASK_A));
  fake.fire('frontend_event', { type: 'event', id: 'x', timestamp: 1, event: { type: 'chatDelta' } });
  fake.fire('frontend_event', 'garbage');
  assert.equal(got, ['chatDelta']);
  assert.is(invalid.length, 2);
});

socket('sends frontend_message with ack; not connected and timeouts come back as errors', async () => {
  const { fake, link } = linkSetup();
  const build = createMessageFactory({ clock: { now: () => 5 }, newId: () => 'x1' });
  const message = build('stop_task', TASK_A, { reason: 'done' });
  assert.is((await link.send(message)).ok, false, 'not connected');
  fake.connected = true;
  assert.equal(await link.send(message), { ok: true });
  assert.equal(fake.emitted[0], ['frontend_message', message]);
  fake.answer = async () => {
    throw new Error('operation has timed out');
  };
  const timedOut = await link.send(message);
  assert.ok(!timedOut.ok && timedOut.error.code === 'UNAVAILABLE');
});

socket('reconnects by itself after a server-side disconnect, not after a refused token', () => {
  const { fake, timers, statuses } = linkSetup();
  fake.fire('disconnect', 'io server disconnect');
  assert.is(timers.length, 1);
  timers.shift()!();
  assert.is(fake.connects, 1);
  fake.active = false;
  fake.fire('connect_error', Object.assign(new Error('x'), { data: { code: 'UNAUTHORIZED', message: 'wrong token' } }));
  assert.is(timers.length, 0);
  fake.fire('connect_error', Object.assign(new Error('x'), { data: { code: 'BAD_REQUEST', message: 'invalid auth' } }));
  assert.is(timers.length, 1);
  assert.equal(
    statuses.map((s) => s.type),
    ['disconnected', 'connect_error', 'connect_error'],
  );
});

const misc = suite('io: token, messages, acks');

misc('?token= is stored once and removed from the address; later visits use the stored one', () => {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
  const first = resolveToken('http://h/?token=abc&x=1#/task/1', storage);
  assert.equal(first, { token: 'abc', cleanedHref: 'http://h/?x=1#/task/1' });
  assert.is(store.get(TOKEN_STORAGE_KEY), 'abc');
  assert.equal(resolveToken('http://h/', storage), { token: 'abc', cleanedHref: null });
  const throwing = {
    getItem: () => {
      throw new Error('denied');
    },
    setItem: () => {
      throw new Error('denied');
    },
  };
  assert.equal(resolveToken('http://h/?token=t', throwing), { token: 't', cleanedHref: 'http://h/' });
  assert.equal(resolveToken('http://h/', throwing), { token: undefined, cleanedHref: null });
});

misc('a link offering another token never silently replaces a working one (issue 23)', async () => {
  const store = new Map<string, string>([[TOKEN_STORAGE_KEY, 'good']]);
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  };
  // The address is cleaned, the stored token is used, the offered one is only held aside.
  assert.equal(resolveToken('http://h/?token=garbage#/task/1', storage), {
    token: 'good',
    cleanedHref: 'http://h/#/task/1',
    offered: 'garbage',
  });
  assert.is(store.get(TOKEN_STORAGE_KEY), 'good');
  // The same token again is no offer.
  assert.equal(resolveToken('http://h/?token=good', storage), { token: 'good', cleanedHref: 'http://h/' });
  const checks: string[] = [];
  const server =
    (valid: string[], down = false) =>
    async (t: string) => (
      checks.push(t),
      down ? ('unknown' as const) : valid.includes(t) ? ('ok' as const) : ('refused' as const)
    );
  assert.equal(await settleOfferedToken('good', 'garbage', server(['good']), storage), {
    kept: true,
    reason: 'stored_works',
  });
  assert.equal(checks, ['good']);
  assert.equal(await settleOfferedToken('good', 'garbage', server(['x'], true), storage), {
    kept: true,
    reason: 'unknown',
  });
  assert.equal(await settleOfferedToken('good', 'garbage', server([]), storage), {
    kept: true,
    reason: 'offered_refused',
  });
  assert.is(store.get(TOKEN_STORAGE_KEY), 'good');
  // The server's token changed: the stored one is refused, the link's works: adopted.
  assert.equal(await settleOfferedToken('good', 'new', server(['new']), storage), { kept: false, token: 'new' });
  assert.is(store.get(TOKEN_STORAGE_KEY), 'new');
  // The check over fetch: 401 refused, 2xx ok, the rest unknown.
  const check = fetchTokenCheck(
    (async (_u: string, init: RequestInit) =>
      new Response('{}', {
        status: (init.headers as Record<string, string>).Authorization === 'Bearer ok' ? 200 : 401,
      })) as unknown as typeof fetch,
    'http://h',
  );
  assert.equal([await check('ok'), await check('no')], ['ok', 'refused']);
  assert.is(
    await fetchTokenCheck(
      (async () => {
        throw new TypeError('down');
      }) as unknown as typeof fetch,
      'http://h',
    )('x'),
    'unknown',
  );
});

misc('every built message matches FrontendMessageSchema', () => {
  const build = createMessageFactory({ clock: { now: () => 1_700_000_000_000 }, newId: () => 'abc' });
  const messages = [
    build('user_message', TASK_A, { content: 'hi' }),
    build('resume_task', TASK_A),
    build('stop_task', TASK_A),
    build('takeover_task', TASK_A, { reason: 'manual' }),
    build('subscribe_task', TASK_A),
    build('unsubscribe_task', TASK_A),
    build('subscribe_inspection', TASK_A),
    build('unsubscribe_inspection', TASK_A),
    build('select_extension', TASK_A, { clientId: 'plugin-abc' }),
  ];
  for (const m of messages) assert.ok(v.is(FrontendMessageSchema, m), m.type);
  assert.is(messages[0]!.id, 'evt-abc');
});

misc('acks are read defensively', () => {
  assert.equal(toAckResult({ ok: true, data: { taskId: TASK_A } }), { ok: true, data: { taskId: TASK_A } });
  assert.equal(
    toAckResult({
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'bad', fieldErrors: [{ field: 'content', message: 'empty' }, 5] },
    }),
    {
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'bad', fieldErrors: [{ field: 'content', message: 'empty' }] },
    },
  );
  assert.is(toAckResult(undefined).ok, false);
  assert.is(toAckResult({ ok: false }).ok, false);
});

api.run();
socket.run();
misc.run();
