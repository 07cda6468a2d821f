// Registration, presence, listing and change notifications of the extension registry.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createExtensionRegistry } from '../extension-registry.ts';
import { makeRegistry, T0 } from './util.ts';
import type { RegistryHarness } from './util.ts';

const reg = suite<{ h: RegistryHarness }>('registry: register and list');
reg.before.each((ctx) => {
  ctx.h = makeRegistry();
});

reg('register upserts by clientId and keeps metadata a later registration leaves out', ({ h }) => {
  const first = h.registry.register({
    clientId: 'plugin-a',
    extensionId: 'abc',
    extensionName: 'mimo-agent',
    ua: 'UA/1',
    version: '0.1.0',
    browserName: 'chrome',
  });
  assert.ok(first.ok);
  h.clock.increment(500);
  h.registry.register({ clientId: 'plugin-a', version: '0.2.0' });
  assert.equal(h.registry.list(), [
    {
      clientId: 'plugin-a',
      extensionId: 'abc',
      extensionName: 'mimo-agent',
      ua: 'UA/1',
      version: '0.2.0',
      browserName: 'chrome',
      socketConnected: false,
      lastSeenAt: T0 + 500,
      health: 'healthy',
    },
  ]);
});

reg('register refuses a missing or empty clientId and changes nothing', ({ h }) => {
  const bad = h.registry.register({ clientId: '' });
  assert.equal(bad, {
    ok: false,
    error: { code: 'BAD_REQUEST', message: 'registration needs a non-empty string clientId' },
  });
  assert.not.ok(h.registry.register(null as never).ok);
  assert.not.ok(h.registry.register({} as never).ok);
  assert.equal(h.registry.list(), []);
  assert.is(h.changes.length, 0);
});

reg('a socket connecting before any registration creates the entry', ({ h }) => {
  h.registry.socketConnected('plugin-x');
  assert.equal(h.registry.list(), [{ clientId: 'plugin-x', socketConnected: true, lastSeenAt: T0, health: 'healthy' }]);
});

reg('list puts online clients first, then the most recently seen', ({ h }) => {
  h.registry.register({ clientId: 'old', version: '1' });
  h.clock.increment(10);
  h.registry.register({ clientId: 'new', version: '1' });
  h.clock.increment(10);
  h.registry.register({ clientId: 'live', version: '1' });
  h.registry.socketConnected('live');
  h.clock.increment(10);
  h.registry.touch('old');
  assert.equal(
    h.registry.list().map((e) => e.clientId),
    ['live', 'old', 'new'],
  );
});

reg.run();

const presence = suite<{ h: RegistryHarness }>('registry: socket presence');
presence.before.each((ctx) => {
  ctx.h = makeRegistry();
});

presence('online while at least one of its sockets is connected', ({ h }) => {
  h.registry.socketConnected('p');
  h.registry.socketConnected('p');
  h.registry.socketDisconnected('p');
  assert.ok(h.registry.isOnline('p'), 'second socket still connected');
  assert.ok(h.registry.get('p')!.socketConnected);
  h.clock.increment(2000);
  h.registry.socketDisconnected('p');
  assert.not.ok(h.registry.isOnline('p'));
  assert.is(h.registry.get('p')!.lastSeenAt, T0 + 2000, 'disconnect updates lastSeenAt');
});

presence('an extra disconnect cannot drive the count below zero', ({ h }) => {
  h.registry.socketConnected('p');
  h.registry.socketDisconnected('p');
  h.registry.socketDisconnected('p');
  h.registry.socketConnected('p');
  assert.ok(h.registry.isOnline('p'));
  h.registry.socketDisconnected('unknown');
  assert.is(h.registry.get('unknown'), undefined);
});

presence('touch moves lastSeenAt without notifying listeners', ({ h }) => {
  h.registry.socketConnected('p');
  const before = h.changes.length;
  h.clock.increment(42);
  h.registry.touch('p');
  assert.is(h.registry.get('p')!.lastSeenAt, T0 + 42);
  assert.is(h.changes.length, before);
});

presence('markUsed sets lastUsedAt', ({ h }) => {
  h.registry.socketConnected('p');
  h.clock.increment(7);
  h.registry.markUsed('p');
  assert.is(h.registry.get('p')!.lastUsedAt, T0 + 7);
});

presence.run();

const notify = suite<{ h: RegistryHarness }>('registry: change notifications');
notify.before.each((ctx) => {
  ctx.h = makeRegistry();
});

notify('register, connect, disconnect and turning unhealthy notify with the current list', ({ h }) => {
  h.registry.register({ clientId: 'p', version: '1' });
  h.registry.socketConnected('p');
  h.registry.recordExecTimeout('p');
  h.registry.recordExecTimeout('p');
  h.registry.socketDisconnected('p');
  assert.equal(
    h.changes.map((c) => [c.clientId, c.reason]),
    [
      ['p', 'registered'],
      ['p', 'connected'],
      ['p', 'unhealthy'],
      ['p', 'disconnected'],
    ],
  );
  assert.is(h.changes[1]!.extensions[0]!.socketConnected, true);
  assert.is(h.changes[2]!.extensions[0]!.health, 'unhealthy');
  assert.is(h.changes[3]!.extensions[0]!.socketConnected, false);
});

notify('unsubscribe stops notifications; on("change") is the same channel', ({ h }) => {
  const seen: string[] = [];
  const off = h.registry.on('change', (c) => seen.push(c.reason));
  h.registry.socketConnected('p');
  off();
  h.registry.socketDisconnected('p');
  assert.equal(seen, ['connected']);
});

notify('a throwing listener does not stop the others or the registry', () => {
  const errors: unknown[] = [];
  const registry = createExtensionRegistry({ clock: { now: () => 1 }, onListenerError: (e) => errors.push(e) });
  const seen: string[] = [];
  registry.subscribe(() => {
    throw new Error('boom');
  });
  registry.subscribe((c) => seen.push(c.clientId));
  registry.socketConnected('p');
  assert.equal(seen, ['p']);
  assert.is(errors.length, 1);
  assert.ok(registry.isOnline('p'));
});

notify.run();
