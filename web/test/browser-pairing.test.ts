// "Connect this browser" (io/browser-pairing.ts) against a fake window standing in for the page
// and the extension's content script: what is posted where, what is accepted back.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  connectThisBrowser,
  PAIRING_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  type BrowserPairingDeps,
} from '../src/io/browser-pairing.ts';

type Listener = (event: MessageEvent) => void;

function fakeWindow(
  origin: string,
  extension:
    ((message: any, reply: (data: unknown, from?: { origin?: string; source?: unknown }) => void) => void) | null,
) {
  const listeners = new Set<Listener>();
  const posted: Array<{ message: any; targetOrigin: string }> = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const win = {
    location: { origin },
    addEventListener: (_: 'message', l: Listener) => void listeners.add(l),
    removeEventListener: (_: 'message', l: Listener) => void listeners.delete(l),
    postMessage(message: unknown, targetOrigin: string) {
      posted.push({ message, targetOrigin });
      const deliver = (data: unknown, from: { origin?: string; source?: unknown } = {}) =>
        queueMicrotask(() =>
          [...listeners].forEach((l) =>
            l({
              data,
              origin: from.origin ?? origin,
              source: 'source' in from ? from.source : win,
            } as unknown as MessageEvent),
          ),
        );
      extension?.(message, deliver);
    },
  };
  let n = 0;
  const deps: BrowserPairingDeps = {
    window: win,
    newId: () => `id${++n}`,
    setTimeout: (fn, ms) => (timers.push({ fn, ms, cleared: false }), timers.length - 1),
    clearTimeout: (handle) => void (timers[handle as number]!.cleared = true),
  };
  const fireTimers = () => timers.filter((t) => !t.cleared).forEach((t) => ((t.cleared = true), t.fn()));
  return { deps, posted, timers, fireTimers };
}

const s = suite('browser pairing (web side)');

s('probe, then the token to this origin only; the outcome comes back', async () => {
  const outcome = {
    ok: true,
    status: 'connected',
    message: 'This browser is connected.',
    serverUrl: 'http://127.0.0.1:6006',
  };
  const w = fakeWindow('http://127.0.0.1:6006', (m, reply) => {
    if (m.type === 'mimo/get_plugin_client_info')
      reply({ type: 'mimo/get_plugin_client_info_result', requestId: m.requestId, payload: { ok: true } });
    if (m.type === 'mimo/connect_browser') {
      // Noise first: a reply from another frame, another origin, another request id.
      reply(
        {
          type: 'mimo/connect_browser_result',
          requestId: m.requestId,
          payload: { ...outcome, status: 'wrong_token', ok: false },
        },
        { source: { frame: 1 } },
      );
      reply(
        {
          type: 'mimo/connect_browser_result',
          requestId: m.requestId,
          payload: { ...outcome, status: 'wrong_token', ok: false },
        },
        { origin: 'https://evil.example' },
      );
      reply({
        type: 'mimo/connect_browser_result',
        requestId: 'other',
        payload: { ...outcome, status: 'wrong_token', ok: false },
      });
      reply({ type: 'mimo/connect_browser_result', requestId: m.requestId, payload: outcome });
    }
  });
  const result = await connectThisBrowser(w.deps, 'tok-1');
  assert.equal(result, outcome);
  assert.equal(
    w.posted.map((p) => [p.message.type, p.targetOrigin]),
    [
      ['mimo/get_plugin_client_info', 'http://127.0.0.1:6006'],
      ['mimo/connect_browser', 'http://127.0.0.1:6006'],
    ],
  );
  assert.is(w.posted[1]!.message.token, 'tok-1');
  assert.equal(
    w.timers.map((t) => [t.ms, t.cleared]),
    [
      [PROBE_TIMEOUT_MS, true],
      [PAIRING_TIMEOUT_MS, true],
    ],
  );
});

s('no extension: the probe times out and the token is never posted', async () => {
  const w = fakeWindow('http://localhost:6006', null);
  const pending = connectThisBrowser(w.deps, 'tok-1');
  await Promise.resolve();
  w.fireTimers();
  const result = await pending;
  assert.equal([result.ok, result.status], [false, 'no_extension']);
  assert.match(result.message, /http:\/\/localhost:6006\/\*/);
  assert.equal(
    w.posted.map((p) => p.message.type),
    ['mimo/get_plugin_client_info'],
  );
});

s('no token (MIMO_TOKEN=off) is sent as an empty string', async () => {
  const w = fakeWindow('http://localhost:6006', (m, reply) => {
    if (m.type === 'mimo/get_plugin_client_info')
      reply({ type: 'mimo/get_plugin_client_info_result', requestId: m.requestId, payload: { ok: true } });
    if (m.type === 'mimo/connect_browser')
      reply({
        type: 'mimo/connect_browser_result',
        requestId: m.requestId,
        payload: { ok: true, status: 'connected', message: 'ok' },
      });
  });
  await connectThisBrowser(w.deps, undefined);
  assert.is(w.posted[1]!.message.token, '');
});

s.run();
