// Shared helpers for the runtime/llm tests: a hand-driven clock, event collection, polling for IO.
import type { LlmClock } from '../llm-clock.ts';
import type { LlmEvent } from '../llm-types.ts';

export interface ManualClock extends LlmClock {
  /** Delays (ms) of the timers still pending, in creation order. */
  pending(): number[];
  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void;
}

export function createManualClock(start = 0): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; ms: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => [...timers.values()].map((t) => t.ms),
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = target;
    },
  };
}

export async function collect(events: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Polls (on the event loop, not a timer clock) until `check` is true; fails after `limitMs` of real time. */
export async function waitFor(check: () => boolean, what: string, limitMs = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export function textOf(events: LlmEvent[]): string {
  return events.map((e) => (e.type === 'delta' ? e.content : '')).join('');
}

export function typesOf(events: LlmEvent[]): string[] {
  return events.map((e) => e.type);
}
