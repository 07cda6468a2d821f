// The whole Mimo server in its own process, as `mimo` starts it (startMimo: the store on disk,
// the URL policy, the inspection hub with its redactor, the agent orchestrator), with a scripted
// LLM that opens a page and then clicks on every step. Used by server-blackbox.bench.ts.
//   node --import tsx bench/runtime/blackbox/server-process.ts
// Sends {type:'ready', url}; IPC {type:'tasks', count, plugins} starts `count` endless clicking
// tasks, each bound to plugin `bench-plugin-<i % plugins>` (answers {type:'started'});
// {type:'cpu'} answers {type:'cpu', micros, systemMicros} (process.cpuUsage user + system so far, and system alone).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMimo } from '../../../runtime/app.ts';
import type { LlmGateway } from '../../../runtime/llm/llm-types.ts';

/** Like a real endpoint it answers on a later turn of the event loop. */
const clickingLlm: LlmGateway = {
  kind: 'openai',
  model: 'bench-clicker',
  async *streamChat(input) {
    await new Promise((r) => setImmediate(r));
    const opened = input.messages.some((m) => m.role === 'tool');
    const id = `call-${Math.random().toString(36).slice(2)}`;
    // clickId 2 of the captured page is its "Home" link: not a consequential step (no hold).
    yield opened
      ? { type: 'tool_call', toolCallId: id, name: 'browser_click', arguments: { clickId: 2 } }
      : {
          type: 'tool_call',
          toolCallId: id,
          name: 'browser_open',
          arguments: { url: 'http://127.0.0.1:33921/sqlite-doc/index.html' },
        };
    yield { type: 'done' };
  },
};

const dir = mkdtempSync(join(tmpdir(), 'mimo-blackbox-'));
// The fake page is on loopback: the policy lifts the private-network block (the default refuses it).
const policy = join(dir, 'url-policy.json');
writeFileSync(policy, JSON.stringify({ open: { allow_private_networks: true } }));
const app = await startMimo(
  {
    MIMO_PORT: '0',
    MIMO_HOST: '127.0.0.1',
    MIMO_TOKEN: 'off',
    MIMO_DATA_DIR: join(dir, 'data'),
    MIMO_ARTIFACT_DIR: join(dir, 'artifacts'),
    MIMO_URL_POLICY: policy,
  },
  { llm: clickingLlm, log: process.env.MIMO_BENCH_DEBUG ? (entry) => console.error(JSON.stringify(entry)) : () => {} },
);

const close = async () => {
  await app.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void close());
process.on('disconnect', () => void close());

// MIMO_BENCH_CPU_PROF_FILE: a V8 CPU profile of the measured window (from the first {type:'cpu'}
// to the second) is written there (read it with bench/runtime/cpu-profile-summary.ts).
const profileFile = process.env.MIMO_BENCH_CPU_PROF_FILE;
let profiler: Session | null = null;
const post = (method: string, params: object = {}) =>
  new Promise<any>((resolve, reject) =>
    profiler!.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

process.on('message', async (message: { type: string; count?: number; plugins?: number }) => {
  if (message.type === 'cpu') {
    const cpu = process.cpuUsage();
    if (profileFile && !profiler) {
      profiler = new Session();
      profiler.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 500 });
      await post('Profiler.start');
    } else if (profileFile && profiler) {
      const { profile } = await post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
    }
    process.send!({ type: 'cpu', micros: cpu.user + cpu.system, systemMicros: cpu.system });
  } else if (message.type === 'tasks') {
    const control = app.server.control!;
    let sent = 0;
    const ask = (taskId: string) =>
      control.userMessage(
        {
          v: 1,
          type: 'user_message',
          id: `evt-bench-${sent++}`,
          timestamp: Date.now(),
          taskId,
          // The task's scope (issue 23) is the host the person names: no step is held for a yes.
          content: 'open http://127.0.0.1:33921/sqlite-doc/index.html and keep clicking',
        } as never,
        {},
      );
    const taskIds = Array.from({ length: message.count! }, (_, i) => `01JD${String(i).padStart(22, '0')}`);
    await Promise.all(
      taskIds.map((taskId, i) => {
        app.server.registry.select(taskId, `bench-plugin-${i % message.plugins!}`);
        return ask(taskId);
      }),
    );
    // A turn ends at the orchestrator's step limit (20 steps): the person asks again at once, and
    // the task goes on (a follow-up reopens it). About one gap in a hundred is such a new turn.
    // This file also runs in another checkout (MIMO_BENCH_COMPARE_TREE): it reads the state value
    // itself, as the task machine had it then (`running`) and has it now (`{ status: 'running' }`).
    const statusOf = (value: unknown) =>
      typeof value === 'object' && value !== null && 'status' in value ? value.status : value;
    const turnRunning = (value: unknown) => {
      const status = statusOf(value);
      return status === 'running' || (typeof status === 'object' && status !== null && 'running' in status);
    };
    type Session = { actor: { subscribe(fn: (snapshot: { value: unknown }) => void): unknown } };
    const sessions = control as unknown as { sessionOf(id: string): Session | undefined };
    for (const taskId of taskIds) {
      let asking = false;
      sessions.sessionOf(taskId)?.actor.subscribe((snapshot) => {
        if (asking || turnRunning(snapshot.value)) return;
        asking = true;
        setImmediate(
          () =>
            void ask(taskId)
              .catch(() => {}) // the server is closing
              .finally(() => (asking = false)),
        );
      });
    }
    process.send!({ type: 'started' });
  }
});
process.send!({ type: 'ready', url: app.server.url });
