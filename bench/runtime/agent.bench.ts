// Agent-loop benchmarks:
// (a) server-added latency from an LLM delta arriving to its chatDelta leaving, measured in the
//     server process around the real orchestrator, next to a reference: the same envelope emitted
//     straight to the task room (the transport's own cost);
// (b) the page context per LLM step on the fixture pages, in tokens (chars / 4): the tool result
//     with the page plus the browser-state message, from pages captured in real Chromium through
//     the extension's readability and dom-index code (runtime/llm/test/offline-pages.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { createInspectionHub } from '../../runtime/agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../runtime/agent/orchestrator.ts';
import { estimateTokens } from '../../runtime/agent/page-context.ts';
import { browserContextOf } from '../../runtime/agent/browser-context.ts';
import type { LlmEvent, LlmGateway } from '../../runtime/llm/llm-types.ts';
import { teaPages } from '../../runtime/llm/test/offline-pages.ts';
import { createServer } from '../../runtime/server.ts';
import { createMemoryTaskStore } from '../../runtime/store/index.ts';
import { testConfig } from '../../runtime/test/util.ts';
import { toolResultOk } from '../../transport/contracts/index.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function benchDeltaLatency(options: { deltas?: number } = {}) {
  const deltas = options.deltas ?? 5_000;
  const yieldedAt = new Map<string, number>();
  const latencies: number[] = [];
  const reference: number[] = [];
  const llm: LlmGateway = {
    kind: 'openai',
    model: 'bench',
    async *streamChat() {
      for (let i = 0; i < deltas; i++) {
        const content = `d${i} `;
        yieldedAt.set(content, performance.now());
        yield { type: 'delta', content } as LlmEvent;
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      yield { type: 'done' } as LlmEvent;
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'mimo-bench-agent-'));
  const clock = { now: () => Date.now() };
  const inspection = createInspectionHub({ clock });
  const server = await createServer({
    config: testConfig(dir),
    log: () => {},
    taskStore: createMemoryTaskStore({ clock }),
    // The recorder hook is called right after each frontend_event is emitted.
    recorder: {
      dir,
      close: async () => {},
      record(_taskId, entry) {
        if (entry.kind !== 'frame' || entry.channel !== 'frontend_event') return;
        const event = (entry.payload as { event: { type: string; delta?: { content: string } } }).event;
        if (event.type !== 'chatDelta' || !event.delta?.content) return;
        const started = yieldedAt.get(event.delta.content);
        if (started !== undefined) latencies.push(performance.now() - started);
      },
    },
    control: (services) => createAgentOrchestrator(services, { llm, inspection }),
  });
  const web = io(`${server.url}/mimo`, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { clientType: 'frontend' } });
  await new Promise<void>((resolve) => web.once('connect', () => resolve()));
  const taskId = '01JD0000000000000000000BEN';
  const done = new Promise<void>((resolve) => web.on('frontend_event', (e: { event: { type: string; finished?: boolean } }) => e.event.type === 'chatDelta' && e.event.finished && resolve()));
  await web.timeout(5_000).emitWithAck('frontend_message', { v: 1, type: 'user_message', id: 'evt-bench', timestamp: Date.now(), taskId, content: 'stream' });
  await done;
  // Reference: the same envelope shape emitted straight to the room, timed the same way.
  for (let i = 0; i < deltas; i++) {
    const started = performance.now();
    server.events.toTask(taskId, { type: 'chatDelta', sender: 'assistant', targetEventId: 'evt-bench', finished: false, delta: { content: `r${i}` } });
    reference.push(performance.now() - started);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  web.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  reference.sort((a, b) => a - b);
  return {
    deltas: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    referenceP50Ms: percentile(reference, 50),
    referenceP99Ms: percentile(reference, 99),
  };
}

export function pageContextTokens() {
  const rows = Object.entries(teaPages).map(([url, spec], i) => {
    const page = { ...spec, tabId: 100 + i, url };
    const tabs = [
      { tabId: 1, windowId: 1, url: 'http://localhost:3000/', title: 'Mimo', active: true, pinned: false, hidden: false, index: 0 },
      { tabId: 100 + i, windowId: 1, url, title: spec.title, active: false, pinned: false, hidden: false, index: 1, groupId: 7 },
    ];
    const state = browserContextOf({ tabs, activeTabId: 1 }, 100 + i);
    const tokens = estimateTokens(toolResultOk('call-1', 'browser_open', { page })) + estimateTokens(`Current browser state: ${JSON.stringify(state)}`);
    return { url: url.replace(/^https?:\/\/[^/]+/, ''), tokens };
  });
  return { rows, max: Math.max(...rows.map((r) => r.tokens)) };
}

export function printAgent(latency: Awaited<ReturnType<typeof benchDeltaLatency>>, context: ReturnType<typeof pageContextTokens>): void {
  console.log(`agent: LLM delta -> chatDelta leaving the server (${latency.deltas} deltas through the orchestrator)`);
  console.log(
    `  p50 ${latency.p50Ms.toFixed(3)} ms  p99 ${latency.p99Ms.toFixed(3)} ms (target p99 < 1 ms); reference (the same envelope emitted directly): p50 ${latency.referenceP50Ms.toFixed(3)} ms  p99 ${latency.referenceP99Ms.toFixed(3)} ms; ratio p99 ${(latency.p99Ms / latency.referenceP99Ms).toFixed(2)}x`,
  );
  console.log('agent: page context per step on the fixture pages (tool result with the page + browser state, chars / 4)');
  for (const row of context.rows) console.log(`  ${row.url.padEnd(24)} ${String(row.tokens).padStart(5)} tokens`);
  console.log(`  max ${context.max} tokens (target <= 4000)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printAgent(await benchDeltaLatency(), pageContextTokens());
}
