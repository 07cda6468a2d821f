// GET /api/snapshot (seed 001 §2.2) and the extension routes (§2.3).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ExtensionListResponseSchema, SnapshotResponseSchema, validate } from '../../../transport/contracts/index.ts';
import { call, makeHarness, postJson, T0 } from './util.ts';
import type { Harness } from './util.ts';

const tab = (tabId: number, windowId: number, index: number, active = false) => ({
  tabId,
  windowId,
  index,
  active,
  pinned: false,
  hidden: false,
  url: `https://example.test/${tabId}`,
});
const sync = (tabs: ReturnType<typeof tab>[]) => ({
  v: 1,
  type: 'full_state_sync',
  windows: [{ windowId: 1, focused: true }],
  tabs,
  tabGroups: [],
  activeWindowId: 1,
  activeTabId: tabs.find((t) => t.active)?.tabId ?? null,
  timestamp: T0,
});

const snap = suite<{ h: Harness }>('http: GET /api/snapshot');
snap.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
snap.after.each(({ h }) => h.remove());

snap('nothing synced: an empty stale snapshot, never cached', async ({ h }) => {
  const res = await call(h.app, '/api/snapshot');
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.body.data, {
    windows: [],
    tabs: [],
    tabGroups: [],
    activeWindowId: null,
    activeTabId: null,
    lastUpdated: null,
    connected: false,
    ageMs: null,
    stale: true,
    clientId: null,
    seq: null,
  });
  assert.ok(validate(SnapshotResponseSchema, res.body.data).ok);
});

snap('an extension online but not synced yet: connected, still stale', async ({ h }) => {
  h.registry.socketConnected('p');
  const res = await call(h.app, '/api/snapshot');
  assert.equal([res.body.data.connected, res.body.data.stale], [true, true]);
});

snap('the latest synced client is served with its freshness; offline makes it stale', async ({ h }) => {
  h.registry.socketConnected('p');
  h.snapshots.applyFullSync('p', sync([tab(1, 1, 0, true), tab(2, 1, 1)]));
  h.clock.increment(1200);
  let res = await call(h.app, '/api/snapshot');
  assert.equal(
    [
      res.body.data.clientId,
      res.body.data.tabs.length,
      res.body.data.activeTabId,
      res.body.data.connected,
      res.body.data.ageMs,
      res.body.data.stale,
      res.body.data.seq,
    ],
    ['p', 2, 1, true, 1200, false, 1],
  );
  assert.ok(validate(SnapshotResponseSchema, res.body.data).ok);
  h.clock.increment(30_000);
  res = await call(h.app, '/api/snapshot');
  assert.equal([res.body.data.stale, res.body.data.tabs.length], [true, 2], 'older than 30 s: stale, still returned');
  h.snapshots.applyTabEvent('p', { v: 1, type: 'tab_event', eventType: 'tab_removed', tabId: 2, timestamp: T0 });
  h.registry.socketDisconnected('p');
  res = await call(h.app, '/api/snapshot');
  assert.equal([res.body.data.connected, res.body.data.stale, res.body.data.tabs.length], [false, true, 1]);
});

snap('?clientId= picks that client and its own connection state', async ({ h }) => {
  h.registry.socketConnected('a');
  h.snapshots.applyFullSync('a', sync([tab(1, 1, 0, true)]));
  h.snapshots.applyFullSync('b', sync([tab(7, 1, 0, true), tab(8, 1, 1)]));
  assert.is((await call(h.app, '/api/snapshot')).body.data.clientId, 'b');
  const a = await call(h.app, '/api/snapshot?clientId=a');
  assert.equal(
    [a.body.data.clientId, a.body.data.tabs.length, a.body.data.connected, a.body.data.stale],
    ['a', 1, true, false],
  );
  const b = await call(h.app, '/api/snapshot?clientId=b');
  assert.equal([b.body.data.connected, b.body.data.stale], [false, true]);
  const unknown = await call(h.app, '/api/snapshot?clientId=zzz');
  assert.equal([unknown.body.data.clientId, unknown.body.data.tabs, unknown.body.data.stale], ['zzz', [], true]);
  assert.is((await call(h.app, '/api/snapshot?clientId=')).body.data.clientId, 'b', 'empty means none');
});

snap.run();

const ext = suite<{ h: Harness }>('http: extension routes');
ext.before.each(async (ctx) => {
  ctx.h = await makeHarness();
});
ext.after.each(({ h }) => h.remove());

const registration = {
  extensionId: 'abcdefghijklmnop',
  extensionName: 'mimo-agent',
  clientId: 'plugin-abc',
  ua: 'Mozilla/5.0',
  version: '0.1.0',
  browserName: 'chrome',
  allowOtherClient: false,
  timestamp: T0,
};

ext('POST /api/extension/extension-id registers and the list shows it', async ({ h }) => {
  const res = await call(h.app, '/api/extension/extension-id', postJson(registration));
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, data: { registered: true } });
  h.registry.socketConnected('plugin-abc');
  const list = await call(h.app, '/api/extension/extension-list');
  assert.is(list.status, 200);
  assert.equal(list.body.data, [
    {
      clientId: 'plugin-abc',
      extensionId: 'abcdefghijklmnop',
      extensionName: 'mimo-agent',
      ua: 'Mozilla/5.0',
      version: '0.1.0',
      browserName: 'chrome',
      socketConnected: true,
      lastSeenAt: T0,
      health: 'healthy',
    },
  ]);
  assert.ok(validate(ExtensionListResponseSchema, list.body.data).ok);
});

ext('GET /api/extension/extension-list is empty at first', async ({ h }) => {
  assert.equal((await call(h.app, '/api/extension/extension-list')).body, { ok: true, data: [] });
});

ext('missing fields are 400 with one field error each, and nothing is registered', async ({ h }) => {
  const res = await call(h.app, '/api/extension/extension-id', postJson({ extensionName: 'x' }));
  assert.is(res.status, 400);
  assert.is(res.body.error.code, 'BAD_REQUEST');
  const fields = res.body.error.details.fieldErrors.map((e: { field: string }) => e.field).sort();
  assert.equal(fields, ['clientId', 'extensionId', 'version']);
  assert.ok(res.body.error.details.fieldErrors.every((e: { message: string }) => / is required$/.test(e.message)));
  assert.equal(h.registry.list(), []);
});

ext('wrong types are 400 with the offending fields', async ({ h }) => {
  const res = await call(
    h.app,
    '/api/extension/extension-id',
    postJson({ ...registration, clientId: 42, allowOtherClient: 'no', timestamp: -1 }),
  );
  assert.is(res.status, 400);
  const fields = res.body.error.details.fieldErrors.map((e: { field: string }) => e.field).sort();
  assert.equal(fields, ['allowOtherClient', 'clientId', 'timestamp']);
  assert.match(res.body.error.message, /^invalid input: /);
});

ext('an empty clientId is refused', async ({ h }) => {
  const res = await call(h.app, '/api/extension/extension-id', postJson({ ...registration, clientId: '' }));
  assert.is(res.status, 400);
  assert.equal(res.body.error.details.fieldErrors, [{ field: 'clientId', message: 'must be a non-empty string' }]);
});

ext.run();
