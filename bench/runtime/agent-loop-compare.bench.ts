// The real path side by side in one run: the agent loop (agent-loop.bench.ts)
// of this checkout and of another one (MIMO_BENCH_COMPARE_TREE, e.g. the starting commit
// in a second worktree: `git worktree add --detach ../base f6706f5` + a node_modules link), each
// in its own process, rounds interleaved (base, ours, base, ours, ...). The same bench file runs
// in both: this checkout's is copied beside the other's as agent-loop.compare.bench.ts.
//
//   MIMO_BENCH_COMPARE_TREE=dir [MIMO_BENCH_TASKS=20] [MIMO_BENCH_ROUNDS=2] [MIMO_BENCH_SECONDS=5]
//     node --import tsx bench/runtime/agent-loop-compare.bench.ts
// MIMO_BENCH_CPU_PROF=dir: each process writes a V8 CPU profile of its measured window there
// (base-<round>.cpuprofile, ours-<round>.cpuprofile); read them with cpu-profile-summary.ts.
// Actions per second per core = browser actions / server CPU seconds (at 200 tasks: saturation).
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentLoopFigures } from './agent-loop.bench.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

function runOnce(benchFile: string, cwd: string, label: string, round: number): Promise<AgentLoopFigures> {
  const prof = process.env.MIMO_BENCH_CPU_PROF;
  const env = {
    ...process.env,
    MIMO_BENCH_JSON: '1',
    ...(prof ? { MIMO_BENCH_CPU_PROF_FILE: join(prof, `${label}-${round}.cpuprofile`) } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', benchFile], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as AgentLoopFigures);
      } catch {
        reject(new Error(`${label} exited ${code}: ${out.slice(-500)}`));
      }
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function compareAgentLoop(compareTree: string, rounds: number) {
  const copy = join(compareTree, 'bench', 'runtime', 'agent-loop.compare.bench.ts');
  copyFileSync(join(here, 'agent-loop.bench.ts'), copy);
  const base: AgentLoopFigures[] = [];
  const ours: AgentLoopFigures[] = [];
  for (let round = 0; round < rounds; round++) {
    base.push(await runOnce(copy, compareTree, 'base', round));
    ours.push(await runOnce(join(here, 'agent-loop.bench.ts'), join(here, '..', '..'), 'ours', round));
  }
  return { base, ours };
}

function printRow(label: string, r: AgentLoopFigures): void {
  const perCore = 1e6 / r.cpuMicrosPerAction;
  console.log(
    `  ${label.padEnd(6)} actions ${String(r.actions).padStart(6)}  CPU/action ${r.cpuMicrosPerAction.toFixed(0).padStart(5)} µs  actions/s/core ${perCore.toFixed(0).padStart(5)}  inspection/action ${r.inspectionEventsPerAction?.toFixed(1) ?? '?'}  gap p50 ${r.gapP50Ms.toFixed(2)} ms p99 ${r.gapP99Ms.toFixed(2)} ms  transport ${r.transportCpuMicrosPerRoundTrip.toFixed(0)} µs`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tree = process.env.MIMO_BENCH_COMPARE_TREE;
  if (!tree) throw new Error('set MIMO_BENCH_COMPARE_TREE to another checkout (see the header of this file)');
  const rounds = Number(process.env.MIMO_BENCH_ROUNDS ?? 2);
  const { base, ours } = await compareAgentLoop(tree, rounds);
  console.log(`agent loop, ${ours[0]!.tasks} tasks, plugins answer after ${ours[0]!.delayMs} ms; base = ${tree}`);
  for (let i = 0; i < rounds; i++) {
    printRow(`base ${i + 1}`, base[i]!);
    printRow(`ours ${i + 1}`, ours[i]!);
  }
  const ratio = median(ours.map((r) => r.cpuMicrosPerAction)) / median(base.map((r) => r.cpuMicrosPerAction));
  console.log(`  CPU per action, ours / base (medians): ${ratio.toFixed(2)}x (goal <= 0.45)`);
}
