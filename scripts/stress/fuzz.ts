// Fuzz a live server: random and mutated Engine.IO / Socket.IO frames on raw WebSockets, and
// random JSON messages through the real socket.io-client, while a control client keeps
// round-tripping. Passes when the server never dies, every control round trip succeeds, and the
// connections that sent garbage were closed.
import { fork } from 'node:child_process';
import { io, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import { createPrng, type Prng } from './prng.ts';
import { nearMissMessage, randomJson } from './random-json.ts';

export interface FuzzOptions {
  frames: number;
  jsonMessages: number;
  seed?: number;
  rawConnections?: number;
}

export interface FuzzReport {
  seed: number;
  framesSent: number;
  rawConnectionsOpened: number;
  garbageConnectionsClosed: number;
  garbageConnectionsLeftOpen: number;
  jsonMessagesSent: number;
  jsonMessagesAnswered: number;
  controlRoundTrips: number;
  controlFailures: number;
  serverAlive: boolean;
  leftOpenAfter?: string[];
  seconds: number;
}

const benign = (rng: Prng): string =>
  rng.pick([
    () => '3',
    () => '6',
    () => `42/mimo,${JSON.stringify([rng.pick(['unknown_event', 'x', 'frontend_messagee']), randomJson(rng)])}`,
    () => `42/mimo,${rng.int(1000)}${JSON.stringify(['frontend_message', randomJson(rng)])}`,
    () => `43/mimo,${rng.int(1000)}${JSON.stringify([randomJson(rng)])}`,
    () => `42/other,${JSON.stringify(['x', 1])}`,
    () => `40/nope,{}`,
  ])();

/** Frames a client must never send: each ends its connection. */
const INVALID = [
  '4abc',
  '42{}',
  '42abc[',
  '9',
  '0',
  '2',
  '',
  '4',
  '42/mimo,["x"',
  '45-["x",{"_placeholder":true,"num":0}]x',
  '42/mimo,[]',
];

/** A mutated valid frame (may or may not stay valid) or a frame known to be invalid. */
const garbage = (rng: Prng): string => {
  if (rng.next() < 0.5) return rng.pick(INVALID);
  const base = rng.pick([
    '42/mimo,["frontend_message",{"v":1}]',
    '40/mimo,{"clientType":"frontend"}',
    '451-["x",{"_placeholder":true,"num":0}]',
    '43/mimo,1[]',
  ]);
  const chars = base.split('');
  for (let i = 1 + rng.int(4); i > 0; i--) {
    const at = rng.int(chars.length + 1);
    const op = rng.int(4);
    if (op === 0) chars.splice(at, 1);
    else if (op === 1) chars.splice(at, 0, String.fromCharCode(rng.int(128)));
    else if (op === 2 && chars.length) chars[Math.min(at, chars.length - 1)] = String.fromCharCode(rng.int(0xffff));
    else chars.length = Math.min(chars.length, at);
  }
  return chars.join('');
};

const isDefinitelyInvalid = (frame: string) => INVALID.includes(frame);

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? 20261122;
  const rng = createPrng(seed);
  const started = performance.now();
  const child = fork(new URL('./stress-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const url: string = await new Promise((resolve, reject) => {
    child.on('message', (m: { type: string; url: string }) => m.type === 'ready' && resolve(m.url));
    child.once('exit', (code) => reject(new Error(`stress server exited (${code})`)));
  });

  // Control client: a round trip every 20 ms, each must be answered.
  const control = io(`${url}/mimo`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { clientType: 'frontend' },
  });
  await new Promise<void>((resolve) => control.once('connect', () => resolve()));
  let controlRoundTrips = 0;
  let controlFailures = 0;
  let stopControl = false;
  const controlLoop = (async () => {
    while (!stopControl) {
      try {
        const reply = await control.timeout(3_000).emitWithAck('frontend_message', {
          v: 1,
          type: 'subscribe_task',
          id: 'ctl',
          timestamp: Date.now(),
          taskId: '01JD0000000000000000000000',
        });
        if (reply?.ok) controlRoundTrips++;
        else controlFailures++;
      } catch {
        controlFailures++;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  // Raw WebSocket connections sending frames.
  let framesSent = 0;
  let rawConnectionsOpened = 0;
  let garbageConnectionsClosed = 0;
  let garbageConnectionsLeftOpen = 0;
  const leftOpen: string[] = [];
  const wsUrl = `${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`;
  async function rawWorker(quota: () => boolean): Promise<void> {
    while (quota()) {
      const ws = new WebSocket(wsUrl);
      rawConnectionsOpened++;
      const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      ws.on('error', () => {});
      const opened = await new Promise<boolean>((resolve) => {
        ws.once('message', () => resolve(true));
        ws.once('close', () => resolve(false));
      });
      if (!opened) continue;
      ws.send('40/mimo,{"clientType":"frontend"}');
      let isClosed = false;
      void closed.then(() => (isClosed = true));
      // A burst of benign frames, then one garbage frame that must close the connection.
      const burst = 50 + rng.int(200);
      for (let i = 0; i < burst && quota() && !isClosed; i++) {
        ws.send(benign(rng));
        framesSent++;
        if (i % 50 === 49) await new Promise((r) => setImmediate(r));
      }
      if (isClosed || !quota()) {
        ws.terminate();
        continue;
      }
      const bad = garbage(rng);
      ws.send(bad);
      framesSent++;
      if (isDefinitelyInvalid(bad)) {
        const closedInTime = await Promise.race([
          closed.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 2_000)),
        ]);
        if (closedInTime) garbageConnectionsClosed++;
        else {
          garbageConnectionsLeftOpen++;
          leftOpen.push(bad);
        }
      }
      ws.terminate();
    }
  }
  const rawCount = options.rawConnections ?? 4;
  const frameQuota = () => framesSent < options.frames && !exited;
  const rawDone = Promise.all(Array.from({ length: rawCount }, () => rawWorker(frameQuota)));

  // Random JSON messages through the real client, frontend and plugin sides.
  let jsonMessagesSent = 0;
  let jsonMessagesAnswered = 0;
  const clients: Socket[] = [
    io(`${url}/mimo`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { clientType: 'frontend' },
    }),
    io(`${url}/mimo`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { clientType: 'plugin', clientId: 'fuzz-plugin' },
    }),
  ];
  await Promise.all(clients.map((c) => new Promise<void>((resolve) => c.once('connect', () => resolve()))));
  const jsonDone = (async () => {
    const inFlight = new Set<Promise<void>>();
    while (jsonMessagesSent < options.jsonMessages && !exited) {
      const client = clients[jsonMessagesSent % 2]!;
      const event = jsonMessagesSent % 2 === 0 ? 'frontend_message' : 'plugin_message';
      const payload = rng.next() < 0.5 ? randomJson(rng) : nearMissMessage(rng);
      jsonMessagesSent++;
      const p = client
        .timeout(10_000)
        .emitWithAck(event, payload)
        .then(
          () => void jsonMessagesAnswered++,
          () => {},
        )
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 200) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  })();

  await Promise.all([rawDone, jsonDone]);
  stopControl = true;
  await controlLoop;
  for (const c of [control, ...clients]) c.close();
  const serverAlive = !exited && child.connected;
  child.kill();
  return {
    seed,
    framesSent,
    rawConnectionsOpened,
    garbageConnectionsClosed,
    garbageConnectionsLeftOpen,
    jsonMessagesSent,
    jsonMessagesAnswered,
    controlRoundTrips,
    controlFailures,
    serverAlive,
    ...(leftOpen.length ? { leftOpenAfter: leftOpen.slice(0, 10) } : {}),
    seconds: (performance.now() - started) / 1_000,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runFuzz({
    frames: Number(process.env.FUZZ_FRAMES ?? 1_000_000),
    jsonMessages: Number(process.env.FUZZ_JSON ?? 100_000),
  });
  console.log(JSON.stringify(report, null, 2));
  process.exitCode =
    report.serverAlive && report.controlFailures === 0 && report.garbageConnectionsLeftOpen === 0 ? 0 : 1;
}
