// Shared helpers for the HTTP API tests: the app over real stores (memory task store, registry,
// snapshot store, artifact service in a temp folder) with a fake clock, scheduler and ids.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { createArtifactService } from '../../artifacts/index.ts';
import type { ArtifactService, Scheduler } from '../../artifacts/index.ts';
import { createExtensionRegistry } from '../../registry/index.ts';
import type { ExtensionRegistry } from '../../registry/index.ts';
import { createSnapshotStore } from '../../snapshot/index.ts';
import type { SnapshotStore } from '../../snapshot/index.ts';
import { createMemoryTaskStore } from '../../store/index.ts';
import type { TaskStore } from '../../store/index.ts';
import { createHttpApp } from '../create-http-app.ts';
import type { HttpAppConfig, HttpAppDeps, HttpEnv } from '../http-types.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

export const T0 = 1_730_000_000_000;
export const BASE = 'http://localhost:6006';
export const WEB = 'http://localhost:3000';
export const TASK_ID = '01HRZ8YV8Q6P1Q2W3E4R5T6Y7V';
export const TASK_UUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

export interface FakeScheduler extends Scheduler {
  fireTimeouts(): void;
}

export function createFakeScheduler(): FakeScheduler {
  let next = 1;
  const timeouts = new Map<number, () => void>();
  return {
    setTimeout: (fn) => (timeouts.set(next, fn), next++),
    clearTimeout: (handle) => void timeouts.delete(handle as number),
    setInterval: () => next++,
    clearInterval: () => undefined,
    fireTimeouts() {
      const due = [...timeouts.values()];
      timeouts.clear();
      for (const fn of due) fn();
    },
  };
}

export interface Harness {
  app: Hono<HttpEnv>;
  clock: TestClock;
  scheduler: FakeScheduler;
  taskStore: TaskStore;
  registry: ExtensionRegistry;
  snapshots: SnapshotStore;
  artifacts: ArtifactService;
  logs: Array<Record<string, unknown>>;
  issuedTaskIds: string[];
  remove(): Promise<void>;
}

export interface HarnessOptions {
  config?: Partial<HttpAppConfig>;
  deps?: Partial<HttpAppDeps>;
  maxUploadBytes?: number;
}

export async function makeHarness(options: HarnessOptions = {}): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'mimo-http-'));
  const clock = createTestClock(T0);
  const scheduler = createFakeScheduler();
  const taskStore = createMemoryTaskStore({ clock });
  const registry = createExtensionRegistry({ clock });
  const snapshots = createSnapshotStore({ clock });
  const artifacts = createArtifactService({
    dir: join(root, 'artifacts'),
    secret: 'http-test-secret-0123456789',
    clock,
    publicBaseUrl: BASE,
    scheduler,
    maxUploadBytes: options.maxUploadBytes ?? 64 * 1024,
  });
  const logs: Array<Record<string, unknown>> = [];
  const issuedTaskIds: string[] = [];
  let traceCounter = 0;
  const app = createHttpApp({
    taskStore,
    registry,
    snapshots,
    artifacts,
    config: { corsOrigins: [], publicBaseUrl: BASE, ...options.config },
    log: (entry) => logs.push(entry as Record<string, unknown>),
    newTaskId: () => {
      const id = `01HS0000000000000000000${String(issuedTaskIds.length).padStart(3, '0')}`;
      issuedTaskIds.push(id);
      return id;
    },
    isConnected: (clientId) => registry.isOnline(clientId),
    newTraceId: () => `trace-${++traceCounter}`,
    clock,
    ...options.deps,
  });
  return {
    app,
    clock,
    scheduler,
    taskStore,
    registry,
    snapshots,
    artifacts,
    logs,
    issuedTaskIds,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** `app.request` and the parsed JSON body. */
export async function call(app: Hono<HttpEnv>, path: string, init: RequestInit = {}): Promise<JsonResponse> {
  const res = await app.request(path, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, headers: res.headers, body };
}

export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export function bytes(n: number, seed = 7): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length: n }, (_, i) => (i * seed + 3) % 251);
}

/** A request body that sends one chunk and then stalls; `reads(n)` resolves once it was pulled n times. */
export function stalledBody(first: Uint8Array): {
  stream: ReadableStream<Uint8Array>;
  reads(n: number): Promise<void>;
} {
  let pulls = 0;
  const waiters: Array<{ n: number; resolve(): void }> = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++;
        for (const w of waiters.filter((w) => pulls >= w.n)) w.resolve();
        if (pulls === 1) {
          controller.enqueue(first);
          return;
        }
        return new Promise(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    reads: (n) => (pulls >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}
