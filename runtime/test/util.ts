// Shared helpers of the runtime tests: a server on 127.0.0.1:0 with a memory store and a temp
// artifact folder, and a web client on the real socket.io-client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { SimulatedClock } from 'xstate';
import { createTestClock, type Clock } from '../clock/index.ts';
import type { MimoConfig } from '../config.ts';
import { createServer, type CreateServerOptions, type MimoServer } from '../server.ts';
import { createMemoryTaskStore } from '../store/index.ts';

export interface TestRuntime {
  server: MimoServer;
  /** The runtime's one clock: XState's SimulatedClock unless the test passed its own. */
  clock: SimulatedClock;
  dir: string;
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export function testConfig(dir: string, overrides: Partial<MimoConfig> = {}): MimoConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: join(dir, 'data'),
    artifactDir: join(dir, 'artifacts'),
    token: undefined,
    corsOrigins: ['http://localhost:3000'],
    snapshotDebug: false,
    publicBaseUrl: 'http://127.0.0.1:0',
    artifactSecret: 'test-secret-test-secret-test-secret',
    ...overrides,
  };
}

export async function startRuntime(
  options: Omit<Partial<CreateServerOptions>, 'config'> & {
    config?: Partial<MimoConfig>;
    dir?: string;
    persistent?: boolean;
  } = {},
): Promise<TestRuntime> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'mimo-runtime-'));
  const logs: Array<Record<string, unknown>> = [];
  const { config, persistent, dir: _dir, clock: given, ...rest } = options;
  // Time in runtime tests is simulated: every actor timeout, retry wait and artifact timer runs
  // on this clock and fires only when the test moves it (`rt.clock.increment(ms)`).
  const clock = (given ?? createTestClock()) as SimulatedClock & Clock;
  const server = await createServer({
    config: testConfig(dir, config),
    log: (entry) => logs.push(entry as Record<string, unknown>),
    clock,
    ...(persistent ? {} : { taskStore: createMemoryTaskStore({ clock }) }),
    ...rest,
  });
  return {
    server,
    clock,
    dir,
    logs,
    async close() {
      await server.close();
      // An upload the close cut off may still be creating its file: retry as rm -rf would.
      if (!options.dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

export async function connectWeb(url: string, options: { token?: string } = {}): Promise<Socket & { events: any[] }> {
  const socket = io(`${url}/mimo`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { clientType: 'frontend', ...(options.token ? { token: options.token } : {}) },
  }) as Socket & { events: any[] };
  socket.events = [];
  socket.on('frontend_event', (envelope: any) => socket.events.push(envelope));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * Polls until a peer-visible condition holds (a frame arrived over the real socket): waiting for
 * IO, never for a timeout. `timeoutMs` is a generous guard against a hang, not a timing claim.
 */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Lets pending IO callbacks and promise jobs run (a few turns of the event loop). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
