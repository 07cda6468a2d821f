// The Stately bridge (MIMO_INSPECT=stately): bound where it is told (MIMO_HOST), behind the same
// Host/Origin gate, token required for its page and its WebSocket, send-only, and redacted.
import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { createActor, createMachine } from 'xstate';
import { createSecretRegistry } from '../redaction/redact.ts';
import { startStatelyBridge } from '../stately-bridge.ts';

const TOKEN = 'stately-bridge-token-123456';

function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, setHost: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

test('token, gate, loopback binding and redaction', async () => {
  const secrets = createSecretRegistry();
  secrets.add('typed-Passw0rd');
  const bridge = await startStatelyBridge({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    gate: { bindHost: '127.0.0.1' },
    secrets,
  });
  const port = Number(new URL(bridge.url).port);
  try {
    assert.match(bridge.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const host = { Host: `localhost:${port}` };
    assert.is(await get(port, '/', host), 401);
    assert.is(await get(port, '/?token=wrong-wrong-wrong', host), 401);
    assert.is(await get(port, `/?token=${TOKEN}`, host), 200);
    assert.is(await get(port, `/?token=${TOKEN}`, { Host: `evil.example:${port}` }), 421);
    assert.is(await get(port, `/?token=${TOKEN}`, { ...host, Origin: 'http://evil.example' }), 403);

    assert.is(await connect(`ws://127.0.0.1:${port}/`), 401);
    assert.is(await connect(`ws://127.0.0.1:${port}/?token=${TOKEN}`, { Origin: 'http://evil.example' }), 403);
    const ws = (await connect(`ws://127.0.0.1:${port}/?token=${TOKEN}`, {
      Origin: `http://127.0.0.1:${port}`,
    })) as WebSocket;
    assert.ok(ws instanceof WebSocket);
    const received: string[] = [];
    ws.on('message', (m) => received.push(String(m)));

    const machine = createMachine({
      id: 'login',
      context: { password: 'ctx-secret', typed: 'typed-Passw0rd', user: 'ada' },
      initial: 'idle',
      states: { idle: {} },
    });
    const actor = createActor(machine, { inspect: (event) => bridge.forward(event) });
    actor.start();
    const deadline = Date.now() + 5000;
    while (!received.some((m) => m.includes('"login"') || m.includes('ada')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const all = received.join('\n');
    assert.match(all, /ada/, 'events arrive');
    assert.not.match(all, /ctx-secret|typed-Passw0rd/);
    actor.stop();
    ws.close();
  } finally {
    bridge.close();
  }
});

test.run();
