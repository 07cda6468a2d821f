// Shared helpers for the runtime/llm tests: event collection, polling for IO (the clock is
// createTestClock of runtime/clock).
import type { LlmEvent } from '../llm-types.ts';

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
