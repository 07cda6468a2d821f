// Shared helpers for the artifact service tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactError } from '../artifact-error.ts';
import { createArtifactService } from '../artifact-service.ts';
import type { ArtifactService, ArtifactServiceOptions, Scheduler } from '../artifact-types.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

export const SECRET = 'test-secret-0123456789abcdef';
export const BASE = 'http://localhost:6006';
export const T0 = 1_730_000_000_000;

export interface FakeScheduler extends Scheduler {
  timeouts: Map<number, { fn: () => void; ms: number }>;
  intervals: Map<number, { fn: () => void; ms: number }>;
  /** Runs (and removes) every pending timeout. */
  fireTimeouts(): void;
  /** Runs every interval callback once. */
  tickIntervals(): void;
}

export function createFakeScheduler(): FakeScheduler {
  let next = 1;
  const timeouts = new Map<number, { fn: () => void; ms: number }>();
  const intervals = new Map<number, { fn: () => void; ms: number }>();
  return {
    timeouts,
    intervals,
    setTimeout: (fn, ms) => (timeouts.set(next, { fn, ms }), next++),
    clearTimeout: (handle) => void timeouts.delete(handle as number),
    setInterval: (fn, ms) => (intervals.set(next, { fn, ms }), next++),
    clearInterval: (handle) => void intervals.delete(handle as number),
    fireTimeouts() {
      const due = [...timeouts.values()];
      timeouts.clear();
      for (const t of due) t.fn();
    },
    tickIntervals() {
      for (const i of intervals.values()) i.fn();
    },
  };
}

export interface Harness {
  dir: string;
  clock: TestClock;
  scheduler: FakeScheduler;
  service: ArtifactService;
  make(overrides?: Partial<ArtifactServiceOptions>): ArtifactService;
  remove(): Promise<void>;
}

export async function makeHarness(overrides: Partial<ArtifactServiceOptions> = {}): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'mimo-artifacts-'));
  const dir = join(root, 'artifacts');
  const clock = createTestClock(T0);
  const scheduler = createFakeScheduler();
  const make = (more: Partial<ArtifactServiceOptions> = {}) =>
    createArtifactService({ dir, secret: SECRET, clock, publicBaseUrl: BASE, scheduler, ...overrides, ...more });
  return { dir, clock, scheduler, service: make(), make, remove: () => rm(root, { recursive: true, force: true }) };
}

/** Awaits a promise that must reject with an ArtifactError and returns it. */
export async function rejection(promise: Promise<unknown>): Promise<ArtifactError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ArtifactError) return error;
    throw new Error(`expected an ArtifactError, got ${String(error)}`);
  }
  throw new Error('expected the promise to reject');
}

export function tokenOf(uploadUrl: string): string {
  return new URL(uploadUrl).searchParams.get('token') ?? '';
}

export async function* chunks(bytes: Uint8Array, size = 1024): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export function webStream(bytes: Uint8Array, size = 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

/** A body the test feeds by hand; records whether the service cancelled it. */
export interface ManualBody extends AsyncIterable<Uint8Array> {
  push(chunk: Uint8Array): void;
  end(): void;
  fail(error: Error): void;
  /** Resolves once the consumer has asked for `n` chunks in total. */
  reads(n: number): Promise<void>;
  readonly cancelled: boolean;
  readonly readCount: number;
}

export function manualBody(): ManualBody {
  const queue: Array<IteratorResult<Uint8Array> | Error> = [];
  let waiting: { resolve(v: IteratorResult<Uint8Array>): void; reject(e: Error): void } | undefined;
  let readCount = 0;
  let cancelled = false;
  const readWaiters: Array<{ n: number; resolve(): void }> = [];
  const deliver = (item: IteratorResult<Uint8Array> | Error) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      if (item instanceof Error) w.reject(item);
      else w.resolve(item);
    } else queue.push(item);
  };
  const iterator: AsyncIterator<Uint8Array> = {
    next() {
      readCount++;
      for (const w of readWaiters.filter((w) => readCount >= w.n)) w.resolve();
      const item = queue.shift();
      if (item instanceof Error) return Promise.reject(item);
      if (item) return Promise.resolve(item);
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    async return() {
      cancelled = true;
      return { done: true, value: undefined };
    },
  };
  return {
    [Symbol.asyncIterator]: () => iterator,
    push: (chunk) => deliver({ done: false, value: chunk }),
    end: () => deliver({ done: true, value: undefined }),
    fail: (error) => deliver(error),
    reads: (n) => (readCount >= n ? Promise.resolve() : new Promise((resolve) => readWaiters.push({ n, resolve }))),
    get cancelled() {
      return cancelled;
    },
    get readCount() {
      return readCount;
    },
  };
}
