// Cluster mode beside single-node mode, in the same run, on the same machine (node processes,
// one throwaway PostgreSQL, the fake plugin and web clients in this process, the mock LLM):
// - time and CPU per browser action: embedded single node; 3 nodes with the plugin on the
//   owner; 3 nodes with the plugin on another node (actions and results cross nodes);
// - event latency across nodes: the same frontend_event on a web client of the owner node and
//   on one of another node (p50/p99 of the difference);
// - failover: kill -9 of the owner mid-turn -> the takeover note on an observer, and -> done.
import { readFileSync } from 'node:fs';
import { completionChunks } from '../../runtime/llm/mock-openai-chunks.ts';
import { startMockOpenAiServer, type MockRequestInfo } from '../../runtime/llm/mock-openai-server.ts';
import { okAnswer, startFakePlugin, type FakePlugin } from '../../runtime/test-util/fake-plugin.ts';
import { connectWeb, eventually } from '../../runtime/test/util.ts';
import {
  authHeaders,
  CLUSTER_TOKEN,
  startClusterHarness,
  type ClusterHarness,
  type NodeProcess,
} from '../../runtime/cluster/test/cluster-harness.ts';

const CLICKS = 15;
const WORDS = 150;

function model({ body }: MockRequestInfo) {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== 'user') lastUser--;
  const done = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  if (done === 0)
    return completionChunks({
      toolCalls: [
        { id: 'call-open', name: 'browser_open', arguments: JSON.stringify({ url: 'http://127.0.0.1:9/bench' }) },
      ],
    });
  if (done <= CLICKS)
    return completionChunks({
      toolCalls: [{ id: `call-${done}`, name: 'browser_click', arguments: JSON.stringify({ clickId: 1 }) }],
    });
  return completionChunks({ text: Array.from({ length: WORDS }, (_, i) => `w${i}`).join(' ') });
}

/** utime + stime of a process, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

let taskSeq = 0;
const newTaskId = () => `01JD00000000000000BENCH${String(taskSeq++).padStart(3, '0')}`;

interface TurnResult {
  ms: number;
  actions: number;
  cpuMs: number;
  eventDelays: number[];
}

async function runTurns(opts: {
  nodes: NodeProcess[];
  webNode: NodeProcess;
  observerNode?: NodeProcess;
  plugin: FakePlugin;
  turns: number;
}): Promise<TurnResult> {
  const web = await connectWeb(opts.webNode.url, { token: CLUSTER_TOKEN });
  const observer = opts.observerNode ? await connectWeb(opts.observerNode.url, { token: CLUSTER_TOKEN }) : undefined;
  const arrivals = new Map<string, number>();
  const delays: number[] = [];
  web.on('frontend_event', (e: { id: string }) => arrivals.set(e.id, performance.now()));
  observer?.on('frontend_event', (e: { id: string }) => {
    const local = arrivals.get(e.id);
    if (local !== undefined) delays.push(performance.now() - local);
  });
  let ms = 0;
  let actions = 0;
  let cpu = 0;
  for (let turn = 0; turn < opts.turns + 1; turn++) {
    const taskId = newTaskId();
    if (observer)
      await observer.timeout(5000).emitWithAck('frontend_message', {
        v: 1,
        type: 'subscribe_task',
        id: `evt-s${taskId}`,
        timestamp: Date.now(),
        taskId,
      });
    const before = opts.plugin.received.length;
    const cpuBefore = opts.nodes.map((n) => cpuMs(n.child.pid!));
    const started = performance.now();
    await web.timeout(10_000).emitWithAck('frontend_message', {
      v: 1,
      type: 'user_message',
      id: `evt-${taskId}`,
      timestamp: Date.now(),
      taskId,
      content: 'bench',
    });
    await eventually(
      () =>
        web.events.some((e) => e.taskId === taskId && e.event.type === 'taskStatus' && e.event.status === 'ongoing'),
      60_000,
      'turn end',
    );
    if (turn === 0) continue; // warm-up
    ms += performance.now() - started;
    actions += opts.plugin.received.length - before;
    cpu += opts.nodes.reduce((sum, n, i) => sum + cpuMs(n.child.pid!) - cpuBefore[i]!, 0);
  }
  web.close();
  observer?.close();
  return { ms, actions, cpuMs: cpu, eventDelays: delays };
}

async function plugin(url: string, clientId: string): Promise<FakePlugin> {
  return startFakePlugin({
    url,
    clientId,
    token: CLUSTER_TOKEN,
    dedupe: true,
    answer: (name, params) =>
      name === 'browser_dom_index'
        ? { result: { status: 'success', result: { elements: [{ clickId: 1, tag: 'button', text: 'Go' }] } } }
        : okAnswer(name, params),
  });
}

export async function benchCluster(options: { turns?: number; failovers?: number } = {}) {
  const turns = options.turns ?? 3;
  const llm = await startMockOpenAiServer({ script: model });
  const llmEnv = { OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'bench', MIMO_MODEL: 'mock' };
  const rows: Array<{ name: string } & TurnResult> = [];
  let failovers: Array<{ noteMs: number; doneMs: number }> = [];
  let h: ClusterHarness | undefined;
  try {
    // 1. Embedded single node (lowdb, no adapter): the reference.
    h = await startClusterHarness(llmEnv);
    const single = await h.startNode('single', { MIMO_DATABASE_URL: '' });
    const p0 = await plugin(single.url, 'bench-single');
    rows.push({
      name: '1 node, embedded (reference)',
      ...(await runTurns({ nodes: [single], webNode: single, plugin: p0, turns })),
    });
    p0.close();
    await single.stop();

    // 2. Three cluster nodes.
    const [a, b, c] = (await Promise.all(['bench-a', 'bench-b', 'bench-c'].map((n) => h!.startNode(n)))) as [
      NodeProcess,
      NodeProcess,
      NodeProcess,
    ];
    const onA = await plugin(a.url, 'bench-on-a');
    rows.push({
      name: '3 nodes, plugin on the owner',
      ...(await runTurns({ nodes: [a, b, c], webNode: a, observerNode: c, plugin: onA, turns })),
    });
    onA.close();
    const onB = await plugin(b.url, 'bench-on-b');
    await eventually(
      async () => {
        const body = (await (
          await fetch(`${a.url}/api/extension/extension-list`, { headers: authHeaders })
        ).json()) as { data: Array<{ clientId: string; socketConnected: boolean }> };
        return (
          body.data.some((e) => e.clientId === 'bench-on-b' && e.socketConnected) &&
          !body.data.some((e) => e.clientId === 'bench-on-a' && e.socketConnected)
        );
      },
      10_000,
      'A to see only the plugin on B',
    );
    rows.push({
      name: '3 nodes, plugin on another node',
      ...(await runTurns({ nodes: [a, b, c], webNode: a, observerNode: c, plugin: onB, turns })),
    });

    // 3. Failover: the owner is killed while an action waits at the plugin.
    failovers = [];
    let owner = a;
    for (let round = 0; round < (options.failovers ?? 3); round++) {
      const taskId = newTaskId();
      const web = await connectWeb(owner.url, { token: CLUSTER_TOKEN });
      const observer = await connectWeb(c.url, { token: CLUSTER_TOKEN });
      await observer.timeout(5000).emitWithAck('frontend_message', {
        v: 1,
        type: 'subscribe_task',
        id: `evt-s${taskId}`,
        timestamp: Date.now(),
        taskId,
      });
      await web.timeout(10_000).emitWithAck('frontend_message', {
        v: 1,
        type: 'user_message',
        id: `evt-${taskId}`,
        timestamp: Date.now(),
        taskId,
        content: 'bench',
      });
      await eventually(
        () => onB.received.filter((f) => f.taskId === taskId).length >= 8,
        20_000,
        `the turn under way (round ${round}, owner ${owner.name})`,
      ).catch((error) => {
        throw new Error(
          `${(error as Error).message}: ${JSON.stringify(web.events.filter((e) => e.taskId === taskId).map((e) => e.event)).slice(0, 1500)}`,
        );
      });
      const killedAt = performance.now();
      owner.kill9();
      await new Promise((r) => owner.child.once('exit', r));
      await eventually(
        () =>
          observer.events.some(
            (e) =>
              e.taskId === taskId && e.event.type === 'structuredOutput' && /took it over/.test(e.event.message ?? ''),
          ),
        15_000,
        'takeover note',
      );
      const noteMs = performance.now() - killedAt;
      await eventually(
        () =>
          observer.events.some(
            (e) =>
              e.taskId === taskId &&
              e.event.type === 'taskStatus' &&
              e.event.status === 'ongoing' &&
              e.event.previous === 'running',
          ),
        30_000,
        'done',
      );
      failovers.push({ noteMs, doneMs: performance.now() - killedAt });
      web.close();
      observer.close();
      owner = await h.startNode(`bench-a${round + 1}`); // the next owner; C observes
    }
    onB.close();
  } finally {
    await h?.close();
    await llm.close();
  }
  return { rows, failovers, clicks: CLICKS, words: WORDS, turns };
}

export function printCluster(result: Awaited<ReturnType<typeof benchCluster>>): void {
  const ref = result.rows[0]!;
  if (result.rows.some((r) => r.actions === 0))
    throw new Error('a scenario dispatched no browser action: the bench is broken');
  const perAction = (r: TurnResult) => r.ms / r.actions;
  const cpuPerAction = (r: TurnResult) => r.cpuMs / r.actions;
  console.log(
    `turns of ${result.clicks} clicks (+ page preparation) and a ${result.words}-word answer; ${result.turns} measured turns each; mock LLM; fake plugin answering at once`,
  );
  for (const r of result.rows) {
    console.log(
      `  ${r.name.padEnd(34)} ${perAction(r).toFixed(2).padStart(6)} ms/action (x${(perAction(r) / perAction(ref)).toFixed(2)})   CPU ${cpuPerAction(r).toFixed(2).padStart(5)} ms/action over all nodes (x${(cpuPerAction(r) / cpuPerAction(ref)).toFixed(2)})   ${r.actions} actions`,
    );
  }
  for (const r of result.rows.slice(1)) {
    if (r.eventDelays.length)
      console.log(
        `  event latency owner node -> web on another node (${r.name}): p50 ${percentile(r.eventDelays, 50).toFixed(2)} ms, p99 ${percentile(r.eventDelays, 99).toFixed(2)} ms over ${r.eventDelays.length} events`,
      );
  }
  const notes = result.failovers.map((f) => f.noteMs);
  const dones = result.failovers.map((f) => f.doneMs);
  console.log(
    `  failover (kill -9 of the owner mid-turn, check every 250 ms): takeover note after ${notes.map((n) => n.toFixed(0)).join(', ')} ms; turn done after ${dones.map((n) => n.toFixed(0)).join(', ')} ms`,
  );
}
