// Benchmark: does appendMessage cost grow with the task's own history? One file store, two tasks:
// one with 1 message, one with 3,000 (chat-sized, ~300 B each); appends alternate between them
// sample by sample, so machine load hits both equally. Goal (issue 14): ratio <= 1.5.
//
//   node --import tsx runtime/store/bench/message-append.bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTaskStore } from '../task-store.ts';

export interface MessageAppendBench {
  shortP50Ms: number;
  longP50Ms: number;
  history: number;
  /** longP50Ms / shortP50Ms */
  ratio: number;
}

const clock = { now: () => Date.now() };
const message = (id: string) => ({ id, role: 'user' as const, content: `message ${id} ${'x'.repeat(280)}`, timestamp: Date.now() });
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchMessageAppend(options: { history?: number; samples?: number } = {}): Promise<MessageAppendBench> {
  const history = options.history ?? 3_000;
  const samples = options.samples ?? 300;
  const dir = await mkdtemp(join(tmpdir(), 'mimo-append-bench-'));
  try {
    const store = createTaskStore({ dataDir: dir, clock });
    await store.createTaskIfAbsent({ taskId: 'short', title: 'short' });
    await store.createTaskIfAbsent({ taskId: 'long', title: 'long' });
    await store.appendMessage('short', message('s-0'));
    for (let i = 0; i < history; i++) await store.appendMessage('long', message(`l-${i}`));
    const short: number[] = [];
    const long: number[] = [];
    for (let i = 0; i < samples + 20; i++) {
      for (const [taskId, into] of [['short', short], ['long', long]] as const) {
        const started = performance.now();
        await store.appendMessage(taskId, message(`${taskId}-b-${i}`));
        if (i >= 20) into.push(performance.now() - started);
      }
    }
    await store.close();
    const shortP50Ms = p50(short);
    const longP50Ms = p50(long);
    return { shortP50Ms, longP50Ms, history, ratio: longP50Ms / shortP50Ms };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function printMessageAppend(r: MessageAppendBench): void {
  console.log(`appendMessage p50: ${r.shortP50Ms.toFixed(3)} ms with 1 message, ${r.longP50Ms.toFixed(3)} ms with ${r.history} -> ratio ${r.ratio.toFixed(2)} (goal <= 1.5)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printMessageAppend(await benchMessageAppend());
