// The chaos run: three node processes on one PostgreSQL, `tasks` tasks driven by web clients
// (chaos-client.ts) on random nodes, three fake extensions roaming between nodes
// (chaos-plugin.ts), while a driver injects `faults` faults one at a time, every ~`faultEveryMs`:
// kill -9 of a node (restarted after a moment, as a supervisor would), SIGTERM of a node (it
// must exit 0 after its handoff; then restarted), or a PostgreSQL restart (down 1-3 s). Then the
// history is checked (chaos-check.ts). Seeded: the same seed gives the same schedule of faults.
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { startMockOpenAiServer } from '../../llm/mock-openai-server.ts';
import { CLUSTER_TOKEN, startClusterHarness, type NodeProcess } from './cluster-harness.ts';
import { checkHistory, type ChaosReport, type StoredRow } from './chaos-check.ts';
import { startChaosClient, type ChaosClient } from './chaos-client.ts';
import { startRoamingPlugin, type RoamingPlugin } from './chaos-plugin.ts';
import { model, SITE } from './cluster-scenario.ts';

export interface ChaosOptions {
  tasks: number;
  faults: number;
  faultEveryMs: number;
  seed: number;
  /** After the last fault: how long every message may take to be answered (default 40 s). */
  settleMs?: number;
  log?: (line: string) => void;
}

export interface ChaosOutcome {
  report: ChaosReport;
  faults: { kill9: number; sigterm: number; pgRestart: number };
  /** Exit codes of nodes after SIGTERM (all 0 when each handed over cleanly). */
  sigtermExits: Array<number | null>;
  /** Nodes that exited on their own (never expected). */
  unexpectedExits: string[];
  unacknowledged: number;
  clientReconnects: number;
  pluginReconnects: number;
  durationMs: number;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Each names the site (any may be a task's first message: issue 23's scope holds a page outside it).
const CONTENTS = ['Please click both', 'Please open one', 'Please click three', 'Please just answer'].map(
  (text) => `${text} on ${SITE}`,
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runChaos(options: ChaosOptions): Promise<ChaosOutcome> {
  const started = Date.now();
  // Two streams from the seed: the faults' schedule does not change with the workload.
  const random = rng(options.seed ^ 0x5bd1e995);
  const faultRandom = rng(options.seed);
  const say = options.log ?? (() => undefined);
  const log = (line: string) => say(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`);
  const llm = await startMockOpenAiServer({ script: model });
  const h = await startClusterHarness({
    OPENAI_BASE_URL: llm.url,
    OPENAI_API_KEY: 'test-key',
    MIMO_MODEL: 'mock',
    MIMO_FAILOVER_CHECK_MS: '250',
  });
  const names = ['node-a', 'node-b', 'node-c'];
  const up = new Map<string, NodeProcess>();
  const intended = new Set<string>();
  const unexpectedExits: string[] = [];
  const restarts: Promise<void>[] = [];
  let closing = false;
  async function start(name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const node = await h.startNode(name);
        node.child.once('exit', (code, signal) => {
          up.delete(name);
          if (intended.delete(name) || closing) return;
          unexpectedExits.push(`${name} (${code ?? signal})`);
          restarts.push(sleep(500).then(() => start(name))); // the supervisor restarts it too
        });
        up.set(name, node);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await sleep(500); // the database may be restarting
      }
    }
  }
  await Promise.all(names.map(start));
  const pickUrl = () => {
    const live = [...up.values()];
    return live.length ? live[Math.floor(Math.random() * live.length)]!.url : undefined;
  };
  const plugins: RoamingPlugin[] = [1, 2, 3].map((n) =>
    startRoamingPlugin({
      clientId: `chaos-plugin-${n}`,
      token: CLUSTER_TOKEN,
      pickUrl,
      workMs: () => Math.floor(Math.random() * 250),
    }),
  );
  await sleep(1_500);
  log('nodes and extensions up');

  const clients: ChaosClient[] = [];
  const span = options.faults * options.faultEveryMs;
  for (let i = 0; i < options.tasks; i++) {
    const taskId = `01JDCA000000000000000${String(i).padStart(5, '0')}`;
    const pick = () => CONTENTS[Math.floor(random() * CONTENTS.length)]!;
    clients.push(
      startChaosClient({
        taskId,
        token: CLUSTER_TOKEN,
        pickUrl,
        // The first at once (staggered), the others spread over the fault window: some land
        // during a turn (queued), some while a node is down or the database restarts.
        messages: [
          { id: `m-${i}-1`, content: pick(), delayMs: i * 40 },
          { id: `m-${i}-2`, content: pick(), delayMs: Math.floor(random() * 2_500) },
          { id: `m-${i}-3`, content: pick(), delayMs: Math.floor(random() * span) },
        ],
      }),
    );
  }

  const faults = { kill9: 0, sigterm: 0, pgRestart: 0 };
  const sigtermExits: Array<number | null> = [];
  // A killed or stopped node comes back in the background (a supervisor's restart); the next fault
  // waits only until two nodes are up, so a fault may land while a node is still starting.
  for (let k = 0; k < options.faults; k++) {
    await sleep(options.faultEveryMs * (0.5 + faultRandom()));
    while (up.size < names.length - 1) await sleep(100);
    const roll = faultRandom();
    const pickFrom = [...up.keys()];
    const name = pickFrom[Math.floor(faultRandom() * pickFrom.length)]!;
    const node = up.get(name)!;
    if (roll < 0.4) {
      faults.kill9++;
      log(`fault ${k + 1}: kill -9 ${name}`);
      intended.add(name);
      const exited = new Promise((r) => node.child.once('exit', r));
      node.kill9();
      restarts.push(exited.then(() => sleep(300 + Math.random() * 1_200)).then(() => start(name)));
    } else if (roll < 0.75) {
      faults.sigterm++;
      log(`fault ${k + 1}: SIGTERM ${name}`);
      intended.add(name);
      up.delete(name); // the load balancer stops sending it new connections
      const exited = new Promise<number | null>((r) => node.child.once('exit', (code) => r(code)));
      node.child.kill('SIGTERM');
      restarts.push(exited.then((code) => void sigtermExits.push(code)).then(() => start(name)));
    } else {
      faults.pgRestart++;
      const downMs = 1_000 + Math.floor(faultRandom() * 2_000);
      log(`fault ${k + 1}: PostgreSQL restart, down ${downMs} ms`);
      await h.pg.restart!(downMs);
    }
  }
  await Promise.all(restarts);
  log('faults done');
  let guard: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(clients.map((c) => c.done)), new Promise((r) => (guard = setTimeout(r, 60_000)))]);
  clearTimeout(guard);
  log('clients done');
  const db = new pg.Client({ connectionString: h.databaseUrl });
  await db.connect();
  const read = async () => {
    const messages = (
      await db.query<StoredRow>(
        `SELECT task_id, id, role, content, meta->>'traceId' AS trace, meta->>'outcome' AS outcome, meta->'error'->>'code' AS code FROM mimo_messages WHERE task_id LIKE '01JDCA%' ORDER BY task_id, seq`,
      )
    ).rows;
    const statuses = new Map(
      (
        await db.query<{ task_id: string; status: string }>(
          `SELECT task_id, status FROM mimo_tasks WHERE task_id LIKE '01JDCA%'`,
        )
      ).rows.map((r) => [r.task_id, r.status]),
    );
    return { messages, statuses };
  };
  const historyNow = async () => ({
    ...(await read()),
    acknowledged: new Map(clients.map((c) => [c.taskId, c.acknowledged])),
    executed: plugins.flatMap((p) => p.executed),
    received: plugins.flatMap((p) => p.received),
    events: new Map(clients.map((c) => [c.taskId, c.events])),
  });
  const settleUntil = Date.now() + (options.settleMs ?? 40_000);
  let report = checkHistory(await historyNow());
  while ((report.unanswered.length > 0 || report.stranded.length > 0) && Date.now() < settleUntil) {
    await sleep(500);
    report = checkHistory(await historyNow());
  }
  log('settled');
  await sleep(500); // a late duplicate answer would show now
  report = checkHistory(await historyNow());
  await db.end();
  if (process.env.MIMO_CHAOS_DUMP) {
    const bad = new Set(
      [...report.eventsOutOfOrder, ...report.stranded, ...report.unanswered, ...report.answeredTwice].map(
        (line) => line.split(/[:/ ]/)[0]!,
      ),
    );
    const events = clients.filter((c) => bad.has(c.taskId)).map((c) => ({ taskId: c.taskId, events: c.events }));
    writeFileSync(process.env.MIMO_CHAOS_DUMP, JSON.stringify({ report, events }, null, 1));
  }

  for (const c of clients) c.close();
  for (const p of plugins) p.close();
  closing = true;
  await h.close();
  await llm.close();
  return {
    report,
    faults,
    sigtermExits,
    unexpectedExits,
    unacknowledged: clients.reduce((n, c) => n + c.unacknowledged.length, 0),
    clientReconnects: clients.reduce((n, c) => n + c.reconnects, 0),
    pluginReconnects: plugins.reduce((n, p) => n + p.reconnects, 0),
    durationMs: Date.now() - started,
  };
}
