import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ActivateExtensionSchema,
  FullStateSyncSchema,
  TabEventSchema,
  validate,
} from '../../transport/contracts/index.ts';
import { createArtifactUploader, parseUploadUrl } from '../background/artifact-upload.ts';
import { createBackground } from '../background/background-app.ts';
import { KEEPALIVE_ALARM } from '../background/keepalive.ts';
import { registerExtension } from '../background/registration.ts';
import { createServerLink } from '../background/server-link.ts';
import { defaultSettings, SETTINGS_KEY } from '../shared/settings.ts';
import { fakeBrowser, manualTimers } from './fakes/fake-browser.ts';
import { fakeSocketFactory } from './fakes/fake-socket.ts';

type FetchCall = { url: string; init: RequestInit };
function fakeFetch(answers: Array<(call: FetchCall) => Response | Promise<Response>>) {
  const calls: FetchCall[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return answer(call);
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const flush = () => new Promise((resolve) => setImmediate(resolve));

const link = suite('server link');

link('connects over websocket to /mimo with plugin auth and the token', async () => {
  const { connect, sockets } = fakeSocketFactory();
  const server = createServerLink({
    connect,
    settings: () => ({ ...defaultSettings, serverUrl: 'http://srv:6006', token: 'tok' }),
    clientId: async () => 'plugin-1',
    handlers: {},
    onConnected: () => {},
  });
  await server.start();
  await server.start();
  assert.is(sockets.length, 1);
  assert.is(sockets[0]!.url, 'http://srv:6006/mimo');
  assert.equal(sockets[0]!.options.transports, ['websocket']);
  assert.equal(sockets[0]!.options.auth, { clientType: 'plugin', clientId: 'plugin-1', token: 'tok' });
});

link('every (re)connect calls onConnected; send only while connected', async () => {
  const { connect, sockets } = fakeSocketFactory();
  let connects = 0;
  const server = createServerLink({
    connect,
    settings: () => defaultSettings,
    clientId: async () => 'p',
    handlers: {},
    onConnected: () => void (connects += 1),
  });
  await server.start();
  assert.is(server.send({ type: 'x' }), false);
  sockets[0]!.fire('connect');
  sockets[0]!.fire('disconnect', 'transport close');
  assert.is(server.status().lastError, 'disconnected: transport close');
  sockets[0]!.fire('connect');
  assert.is(connects, 2);
  assert.is(server.send({ type: 'x' }), true);
  assert.equal(sockets[0]!.emitted, [['plugin_message', { type: 'x' }]]);
  assert.equal(server.status(), {
    clientId: 'p',
    serverUrl: defaultSettings.serverUrl,
    connected: true,
    lastError: null,
    errorKind: null,
  });
});

link('connect errors are classified (wrong token / refused / unreachable); a restart starts clean', async () => {
  const { connect, sockets } = fakeSocketFactory();
  const server = createServerLink({
    connect,
    settings: () => defaultSettings,
    clientId: async () => 'p',
    handlers: {},
    onConnected: () => {},
  });
  await server.start();
  sockets[0]!.fire('connect_error', { message: 'x', data: { code: 'UNAUTHORIZED', message: 'wrong token' } });
  assert.is(server.status().errorKind, 'unauthorized');
  sockets[0]!.fire('connect_error', { message: 'x', data: { code: 'FORBIDDEN', message: 'origin' } });
  assert.is(server.status().errorKind, 'forbidden');
  sockets[0]!.fire('connect_error', new Error('websocket error'));
  assert.is(server.status().errorKind, 'unreachable');
  await server.restart();
  assert.equal(
    [server.status().lastError, server.status().errorKind],
    [null, null],
    'the old socket says nothing about the new one',
  );
  sockets[0]!.fire('connect_error', { message: 'late', data: { code: 'UNAUTHORIZED', message: 'late' } });
  assert.is(server.status().errorKind, null, 'events of the replaced socket are ignored');
});

link('request: resolves with the ack; rejects when not connected or when no ack comes in time', async () => {
  const { connect, sockets } = fakeSocketFactory();
  const timers = manualTimers();
  const server = createServerLink({
    connect,
    settings: () => defaultSettings,
    clientId: async () => 'p',
    handlers: {},
    onConnected: () => {},
    timers,
  });
  await server.start();
  await server.request({ type: 'navigation_check' }, 100).then(
    () => assert.unreachable('not connected'),
    (error: Error) => assert.match(error.message, /not connected/),
  );
  sockets[0]!.fire('connect');
  const answered = server.request({ type: 'navigation_check', n: 1 }, 100);
  const [event, message, ack] = sockets[0]!.emitted.at(-1)! as [string, unknown, (r: unknown) => void];
  assert.is(event, 'plugin_message');
  assert.equal(message, { type: 'navigation_check', n: 1 });
  ack({ ok: true, allowed: true });
  assert.equal(await answered, { ok: true, allowed: true });
  assert.is(timers.pending(), 0);
  const silent = server.request({ type: 'navigation_check', n: 2 }, 100);
  timers.advance(100);
  await silent.then(
    () => assert.unreachable('no ack'),
    (error: Error) => assert.match(error.message, /within 100 ms/),
  );
});

link('plugin_message is dispatched by type; unknown types are refused in the ack', async () => {
  const { connect, sockets } = fakeSocketFactory();
  const seen: unknown[] = [];
  const server = createServerLink({
    connect,
    settings: () => defaultSettings,
    clientId: async () => 'p',
    onConnected: () => {},
    handlers: { browser_action: (m, ack) => (seen.push(m), ack?.({ ok: true })) },
  });
  await server.start();
  const acks: unknown[] = [];
  sockets[0]!.fire('plugin_message', { type: 'browser_action', id: 1 }, (a: unknown) => acks.push(a));
  sockets[0]!.fire('my_browser_extension_message', { type: 'browser_action', id: 2 }, (a: unknown) => acks.push(a));
  sockets[0]!.fire('plugin_message', { type: 'toString' }, (a: unknown) => acks.push(a));
  sockets[0]!.fire('plugin_message', null);
  assert.equal(seen, [
    { type: 'browser_action', id: 1 },
    { type: 'browser_action', id: 2 },
  ]);
  assert.equal(
    (acks as any[]).map((a) => a.ok),
    [true, true, false],
  );
});

link('ensureConnected revives a socket the server refused; restart uses new settings', async () => {
  const { connect, sockets } = fakeSocketFactory();
  let settings = { ...defaultSettings, token: 'old' };
  const server = createServerLink({
    connect,
    settings: () => settings,
    clientId: async () => 'p',
    handlers: {},
    onConnected: () => {},
  });
  await server.start();
  sockets[0]!.fire('connect_error', { message: 'x', data: { code: 'UNAUTHORIZED', message: 'wrong token' } });
  assert.is(server.status().lastError, 'wrong token');
  sockets[0]!.active = false;
  await server.ensureConnected();
  assert.is(sockets[0]!.connectCalls, 1);
  settings = { ...defaultSettings, token: 'new' };
  await server.restart();
  assert.is(sockets[0]!.disconnectCalls, 1);
  assert.is(sockets[1]!.options.auth.token, 'new');
  sockets[0]!.fire('connect');
  assert.is(server.send({}), false, 'the old socket is ignored');
});

const http = suite('registration and artifact upload over HTTP');

http('registration: POST with the protocol header and token; transient failures retried with a cap', async () => {
  const slept: number[] = [];
  const { fetch, calls } = fakeFetch([
    () => json(503, { ok: false }),
    () => json(200, { ok: true, data: { registered: true } }),
  ]);
  const result = await registerExtension({ fetch, sleep: async (ms) => void slept.push(ms) }, 'http://srv', 'tok', {
    extensionId: 'e',
    clientId: 'p',
    version: '1',
  });
  assert.equal(result, { ok: true });
  assert.is(calls.length, 2);
  assert.equal(slept, [500]);
  assert.is(calls[0]!.url, 'http://srv/api/extension/extension-id');
  assert.equal((calls[0]!.init.headers as Record<string, string>)['X-Mimo-Protocol'], '1');
  assert.equal((calls[0]!.init.headers as Record<string, string>).Authorization, 'Bearer tok');
});

http('registration: a refusal is not retried; an unreachable server ends as PLUGIN_OFFLINE', async () => {
  const refused = fakeFetch([
    () => json(400, { ok: false, error: { code: 'BAD_REQUEST', message: 'version missing' } }),
  ]);
  const r1 = await registerExtension({ fetch: refused.fetch, sleep: async () => {} }, 'http://srv', '', {
    extensionId: 'e',
    clientId: 'p',
    version: '1',
  });
  assert.is(refused.calls.length, 1);
  assert.is(r1.ok ? '' : r1.error.message, 'registration refused (BAD_REQUEST: version missing)');
  const down = fakeFetch([() => Promise.reject(new TypeError('fetch failed'))]);
  const r2 = await registerExtension({ fetch: down.fetch, sleep: async () => {} }, 'http://srv', '', {
    extensionId: 'e',
    clientId: 'p',
    version: '1',
  });
  assert.is(down.calls.length, 3);
  assert.is(r2.ok ? '' : r2.error.code, 'PLUGIN_OFFLINE');
});

http('upload: presign then PUT the bytes; the answer names the artifact', async () => {
  const { fetch, calls } = fakeFetch([
    () =>
      json(200, {
        ok: true,
        data: {
          artifactId: 'art-1',
          uploadUrl: 'http://srv/api/artifacts/art-1/upload?token=t',
          downloadUrl: 'http://srv/api/artifacts/art-1',
          expiresAt: 1,
        },
      }),
    () => json(200, { ok: true, data: { artifactId: 'art-1', downloadUrl: 'http://srv/api/artifacts/art-1' } }),
  ]);
  const uploader = createArtifactUploader({
    fetch,
    serverUrl: () => 'http://srv',
    token: () => '',
    sleep: async () => {},
  });
  const result = await uploader.upload({ taskId: 'T', kind: 'html', contentType: 'text/html', bytes: '<p>' });
  assert.equal(result, { artifactId: 'art-1', url: 'http://srv/api/artifacts/art-1' });
  assert.equal(JSON.parse(String(calls[0]!.init.body)), { taskId: 'T', kind: 'html', contentType: 'text/html' });
  assert.is(calls[1]!.init.method, 'PUT');
  assert.is(calls[1]!.init.body, '<p>');
});

http('upload: a presigned URL skips presign; 5xx is retried; 403 is ARTIFACT_UPLOAD_FAILED', async () => {
  const { fetch, calls } = fakeFetch([() => json(502, {}), () => json(200, { ok: true, data: {} })]);
  const uploader = createArtifactUploader({
    fetch,
    serverUrl: () => 'http://srv',
    token: () => '',
    sleep: async () => {},
  });
  const result = await uploader.upload({
    taskId: 'T',
    kind: 'screenshot',
    contentType: 'image/png',
    bytes: new Uint8Array(1),
    uploadUrl: 'http://srv/api/artifacts/art-9/upload?token=t',
  });
  assert.equal(result, { artifactId: 'art-9', url: 'http://srv/api/artifacts/art-9' });
  assert.is(calls.length, 2);
  const denied = createArtifactUploader({
    fetch: fakeFetch([() => json(403, { ok: false, error: { code: 'FORBIDDEN', message: 'token_expired' } })]).fetch,
    serverUrl: () => 'http://srv',
    token: () => '',
    sleep: async () => {},
  });
  const error = await denied
    .upload({
      taskId: 'T',
      kind: 'html',
      contentType: 'text/html',
      bytes: 'x',
      uploadUrl: 'http://srv/api/artifacts/a/upload?token=t',
    })
    .catch((e: any) => e.error);
  assert.is(error.code, 'ARTIFACT_UPLOAD_FAILED');
  assert.match(error.message, 'FORBIDDEN');
  assert.is(parseUploadUrl('http://srv/elsewhere'), null);
});

const app = suite('background composition');

app('on connect: activate_extension, full_state_sync and registration; tab changes become tab_event', async () => {
  const browser = fakeBrowser();
  browser.addTab({ id: 1, url: 'https://a.example/', active: true, title: 'A' });
  browser.storage.local.data[SETTINGS_KEY] = { serverUrl: 'http://srv:1', token: 't', webUiPatterns: [], useCdp: true };
  const { connect, sockets } = fakeSocketFactory();
  const { fetch, calls } = fakeFetch([() => json(200, { ok: true, data: { registered: true } })]);
  let id = 0;
  const background = createBackground({
    browser,
    connect,
    fetch,
    timers: manualTimers(),
    now: () => 5,
    sleep: async () => {},
    newId: () => `n${++id}`,
    userAgent: 'UA',
  });
  await background.ready;
  assert.is(sockets[0]!.url, 'http://srv:1/mimo');
  assert.is(sockets[0]!.options.auth.clientId, 'plugin-n1', 'clientId created once and stored');
  assert.is(browser.storage.local.data['mimo.clientId'], 'plugin-n1');
  sockets[0]!.fire('connect');
  await flush();
  const [activate, sync] = sockets[0]!.emitted.map((e) => e[1] as Record<string, unknown>);
  assert.ok(validate(ActivateExtensionSchema, activate).ok);
  assert.is(activate!.clientId, 'plugin-n1');
  assert.ok(validate(FullStateSyncSchema, sync).ok);
  assert.equal(sync!.activeTabId, 1);
  assert.is(calls[0]!.url, 'http://srv:1/api/extension/extension-id');
  assert.is(JSON.parse(String(calls[0]!.init.body)).clientId, 'plugin-n1');

  browser.events.tabActivated.fire({ tabId: 1, windowId: 1 });
  browser.events.tabRemoved.fire(1, { windowId: 1, isWindowClosing: false });
  const events = sockets[0]!.emitted.slice(2).map((e) => e[1] as Record<string, unknown>);
  assert.equal(
    events.map((e) => e.eventType),
    ['tab_activated', 'tab_removed'],
  );
  assert.ok(events.every((e) => validate(TabEventSchema, e).ok));
  assert.ok(browser.calls.some(([name, alarm]) => name === 'alarms.create' && alarm === KEEPALIVE_ALARM));
});

app('the keepalive alarm and new settings reconnect', async () => {
  const browser = fakeBrowser();
  const { connect, sockets } = fakeSocketFactory();
  const background = createBackground({
    browser,
    connect,
    fetch: fakeFetch([() => json(200, { ok: true })]).fetch,
    timers: manualTimers(),
    now: () => 5,
    sleep: async () => {},
    newId: () => 'x',
    userAgent: 'UA',
  });
  await background.ready;
  sockets[0]!.active = false;
  browser.events.alarm.fire({ name: KEEPALIVE_ALARM });
  await flush();
  assert.is(sockets[0]!.connectCalls, 1);
  browser.events.storageChanged.fire(
    { [SETTINGS_KEY]: { newValue: { serverUrl: 'http://other:2', token: '', webUiPatterns: [], useCdp: true } } },
    'local',
  );
  await flush();
  assert.is(sockets.length, 2);
  assert.is(sockets[1]!.url, 'http://other:2/mimo');
  // New idle timings alone change no connection.
  browser.events.storageChanged.fire(
    {
      [SETTINGS_KEY]: {
        newValue: {
          serverUrl: 'http://other:2',
          token: '',
          webUiPatterns: [],
          useCdp: true,
          debuggerIdleSeconds: 4,
          groupCollapseSeconds: 9,
        },
      },
    },
    'local',
  );
  await flush();
  assert.is(sockets.length, 2, 'no reconnect for the idle timings');
});

link.run();
http.run();
app.run();
