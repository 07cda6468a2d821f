// Shared helpers for the runtime/llm tests: event collection, polling for IO (the clock is
// createTestClock of runtime/clock).
import type { LlmError, LlmEvent } from '../llm-types.ts';

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

/** The final `error` event of a finished stream (throws when the stream did not end on one). */
export function errorOf(events: LlmEvent[]): LlmError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected a final error event, got ${JSON.stringify(events)}`);
  return last;
}

/** Runs the stream in the background so the test can move the clock while it is open. */
export function start(events: AsyncIterable<LlmEvent>) {
  const seen: LlmEvent[] = [];
  const finished = (async () => {
    for await (const event of events) seen.push(event);
    return seen;
  })();
  return { seen, finished };
}
