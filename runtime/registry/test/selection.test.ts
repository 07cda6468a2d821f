// Auto-selection (seed 000 §1, §3.2) and the unhealthy rule (seed 001 §4.1).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PLUGIN_OFFLINE_MESSAGE } from '../select-extension.ts';
import { makeRegistry, online } from './util.ts';
import type { RegistryHarness } from './util.ts';

const TASK = '01HRZ8YV8Q6P1Q2W3E4R5T6Y7V';
const OFFLINE = { ok: false, error: { code: 'PLUGIN_OFFLINE', message: PLUGIN_OFFLINE_MESSAGE, retryable: true } };

const select = suite<{ h: RegistryHarness }>('registry: selectFor');
select.before.each((ctx) => {
  ctx.h = makeRegistry();
});

select('nothing registered or nothing online: PLUGIN_OFFLINE with the install hint', ({ h }) => {
  assert.equal(h.registry.selectFor(TASK), OFFLINE);
  h.registry.register({ clientId: 'p', version: '1' });
  assert.equal(h.registry.selectFor(TASK), OFFLINE);
  h.registry.socketConnected('p');
  h.registry.socketDisconnected('p');
  assert.equal(h.registry.selectFor(TASK), OFFLINE);
  assert.match(PLUGIN_OFFLINE_MESSAGE, /Load unpacked/);
});

select('the only online client is chosen as single', ({ h }) => {
  h.registry.register({ clientId: 'gone', version: '1' });
  online(h, 'p');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'p', reason: 'single' });
});

select('explicit beats the task binding and recency', ({ h }) => {
  online(h, 'a', 'b', 'c');
  h.registry.markUsed('c');
  h.registry.bind(TASK, 'b');
  assert.equal(h.registry.selectFor(TASK, 'a'), { ok: true, clientId: 'a', reason: 'explicit' });
});

select('an explicit client that is offline is an error naming it, not a silent switch', ({ h }) => {
  online(h, 'a');
  h.registry.register({ clientId: 'b', version: '1' });
  const result = h.registry.selectFor(TASK, 'b');
  assert.is(result.ok, false);
  if (result.ok) return;
  assert.is(result.error.code, 'PLUGIN_OFFLINE');
  assert.is(result.error.retryable, true);
  assert.equal(result.error.details, { clientId: 'b' });
  assert.match(result.error.message, /\(b\) is not connected/);
});

select('an empty or null explicit id means no explicit choice', ({ h }) => {
  online(h, 'a');
  assert.equal(h.registry.selectFor(TASK, ''), { ok: true, clientId: 'a', reason: 'single' });
  assert.equal(h.registry.selectFor(TASK, null), { ok: true, clientId: 'a', reason: 'single' });
});

select('the task binding wins over recency while it is online', ({ h }) => {
  online(h, 'a', 'b');
  h.registry.markUsed('b');
  h.registry.bind(TASK, 'a');
  assert.is(h.registry.bindingOf(TASK), 'a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'a', reason: 'task' });
  h.registry.socketDisconnected('a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'b', reason: 'single' });
  h.registry.unbind(TASK);
  assert.is(h.registry.bindingOf(TASK), undefined);
});

select('of several online clients the most recently used one is chosen', ({ h }) => {
  online(h, 'a', 'b', 'c');
  h.registry.markUsed('b');
  h.clock.increment(5);
  h.registry.markUsed('a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'a', reason: 'recent' });
  h.clock.increment(5);
  h.registry.markUsed('c');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'c', reason: 'recent' });
});

select('never-used clients fall back to the most recently seen', ({ h }) => {
  online(h, 'a', 'b');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'b', reason: 'recent' });
  h.clock.increment(10);
  h.registry.touch('a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'a', reason: 'recent' });
  h.registry.markUsed('b');
  assert.equal(
    h.registry.selectFor(TASK),
    { ok: true, clientId: 'b', reason: 'recent' },
    'a used client beats a never-used one',
  );
});

select.run();

const health = suite<{ h: RegistryHarness }>('registry: unhealthy after two exec timeouts in a row');
health.before.each((ctx) => {
  ctx.h = makeRegistry();
});

health('two exec timeouts in a row make a client unhealthy; one does not', ({ h }) => {
  online(h, 'p');
  assert.equal(h.registry.recordExecTimeout('p'), { streak: 1, unhealthy: false, becameUnhealthy: false });
  assert.is(h.registry.get('p')!.health, 'healthy');
  assert.equal(h.registry.recordExecTimeout('p'), { streak: 2, unhealthy: true, becameUnhealthy: true });
  assert.is(h.registry.get('p')!.health, 'unhealthy');
  assert.equal(h.registry.recordExecTimeout('p'), { streak: 3, unhealthy: true, becameUnhealthy: false });
});

health('a settled action between timeouts resets the streak', ({ h }) => {
  online(h, 'p');
  h.registry.recordExecTimeout('p');
  h.registry.recordActionSettled('p');
  assert.equal(h.registry.recordExecTimeout('p'), { streak: 1, unhealthy: false, becameUnhealthy: false });
});

health('a settled action does not clear unhealthy; a reconnect does', ({ h }) => {
  online(h, 'p');
  h.registry.recordExecTimeout('p');
  h.registry.recordExecTimeout('p');
  h.registry.recordActionSettled('p');
  assert.is(h.registry.get('p')!.health, 'unhealthy');
  h.registry.socketDisconnected('p');
  h.registry.socketConnected('p');
  assert.is(h.registry.get('p')!.health, 'healthy');
  assert.equal(
    h.registry.recordExecTimeout('p'),
    { streak: 1, unhealthy: false, becameUnhealthy: false },
    'streak restarted',
  );
});

health('an unknown client records nothing', ({ h }) => {
  assert.equal(h.registry.recordExecTimeout('ghost'), { streak: 0, unhealthy: false, becameUnhealthy: false });
  h.registry.recordActionSettled('ghost');
  assert.equal(h.registry.list(), []);
});

health('auto-selection skips an unhealthy client while a healthy one is online', ({ h }) => {
  online(h, 'sick', 'well');
  h.registry.markUsed('sick');
  h.registry.recordExecTimeout('sick');
  h.registry.recordExecTimeout('sick');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'well', reason: 'single' });
});

health('an unhealthy task binding is left for a healthy client', ({ h }) => {
  online(h, 'sick', 'well');
  h.registry.bind(TASK, 'sick');
  h.registry.recordExecTimeout('sick');
  h.registry.recordExecTimeout('sick');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'well', reason: 'single' });
});

// Seed 001 §4.1: an unhealthy plugin "needs to reconnect" and its queue is cleared: it gets no
// work, whether picked automatically, bound to the task or chosen explicitly, until it reconnects.
health('an unhealthy client gets no work even when nothing else is online; reconnecting clears it', ({ h }) => {
  online(h, 'sick');
  h.registry.bind(TASK, 'sick');
  h.registry.recordExecTimeout('sick');
  h.registry.recordExecTimeout('sick');
  const refused = h.registry.selectFor(TASK);
  assert.is(refused.ok, false);
  assert.is(!refused.ok && refused.error.code, 'PLUGIN_OFFLINE');
  assert.match(!refused.ok ? refused.error.message : '', /Reconnect/);
  assert.is(h.registry.isHealthy('sick'), false);
  h.registry.socketDisconnected('sick');
  h.registry.socketConnected('sick');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'sick', reason: 'task' });
});

health('of a healthy and an unhealthy client the healthy one is chosen, even when the other was used last', ({ h }) => {
  online(h, 'a', 'b');
  h.registry.recordExecTimeout('a');
  h.registry.recordExecTimeout('a');
  h.registry.markUsed('a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'b', reason: 'single' });
});

health(
  'an explicit choice of an unhealthy client is an error telling the user to reconnect or reselect, not a silent switch',
  ({ h }) => {
    online(h, 'sick', 'well');
    h.registry.recordExecTimeout('sick');
    h.registry.recordExecTimeout('sick');
    const refused = h.registry.selectFor(TASK, 'sick');
    assert.is(refused.ok, false);
    assert.match(!refused.ok ? refused.error.message : '', /Reconnect it .* or select another extension/);
  },
);

health('the task selection (select_extension) is honoured by selectFor and beats the binding and recency', ({ h }) => {
  online(h, 'a', 'b');
  h.registry.bind(TASK, 'b');
  h.registry.markUsed('b');
  h.registry.select(TASK, 'a');
  assert.equal(h.registry.selectFor(TASK), { ok: true, clientId: 'a', reason: 'explicit' });
  assert.is(h.registry.selectionOf(TASK), 'a');
  h.registry.select(TASK, null);
  assert.is(h.registry.selectionOf(TASK), undefined);
});

health.run();
