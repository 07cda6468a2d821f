// `npm run eval [-- filter...]`: the corpus tasks through the real server, the real extension in
// headless Chromium and the configured LLM (the offline planner unless OPENAI_API_KEY or
// OPENAI_BASE_URL is set). Prints task, success, steps, tokens, seconds and the success rate;
// writes eval-output/results.json. MIMO_CONTEXT_TOKENS sets the per-step page-context budget.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseContextTokens } from '../../runtime/agent/context-budget.ts';
import { startEvalEnv, runEvalTask, type TaskResult } from './eval-runner.ts';
import { evalTasks } from './tasks.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

export function formatTable(results: TaskResult[]): string {
  const rows = results.map((r) => [
    r.id,
    r.success ? 'yes' : 'NO',
    String(r.steps),
    String(r.promptTokens + r.completionTokens),
    String(Math.max(0, ...r.contextTokens)),
    r.seconds.toFixed(1),
  ]);
  const head = ['task', 'success', 'steps', 'tokens', 'max ctx', 'seconds'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function summaryOf(results: TaskResult[], model: string, contextBudget: number) {
  const passed = results.filter((r) => r.success).length;
  const context = results.flatMap((r) => r.contextTokens);
  const sqlite = results.filter((r) => r.site === 'sqlite-doc').flatMap((r) => r.contextTokens.filter((t) => t > 0));
  return {
    model,
    tasks: results.length,
    passed,
    successRate: results.length ? passed / results.length : 0,
    contextBudgetTokens: contextBudget,
    contextTokensPerStep: { max: Math.max(0, ...context), p50: percentile(context, 50) },
    sqliteContextTokensPerStep: { steps: sqlite.length, max: Math.max(0, ...sqlite), p50: percentile(sqlite, 50) },
    totalSeconds: results.reduce((s, r) => s + r.seconds, 0),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const filters = process.argv.slice(2).map((f) => f.toLowerCase());
  const tasks = evalTasks.filter((t) => filters.length === 0 || filters.some((f) => t.id.toLowerCase().includes(f)));
  const budget = parseContextTokens(process.env.MIMO_CONTEXT_TOKENS);
  if (!budget.ok) {
    console.error(budget.error);
    process.exit(2);
  }
  const ev = await startEvalEnv({ contextTokens: budget.value });
  const results: TaskResult[] = [];
  try {
    console.log(
      `eval: ${tasks.length} tasks on fixtures/corpus, LLM ${ev.llm.kind}/${ev.llm.model}, page-context budget ${budget.value} tokens`,
    );
    for (const task of tasks) {
      const result = await runEvalTask(ev, task);
      results.push(result);
      console.log(
        `  ${result.success ? 'ok  ' : 'FAIL'} ${task.id} (${result.seconds.toFixed(1)} s)${result.success ? '' : `: ${result.detail}${result.error ? ` [${result.error}]` : ''}`}`,
      );
    }
  } finally {
    await ev.close();
  }
  const summary = summaryOf(results, `${ev.llm.kind}/${ev.llm.model}`, budget.value);
  console.log(`\n${formatTable(results)}\n`);
  console.log(`success rate: ${summary.passed}/${summary.tasks} (${(summary.successRate * 100).toFixed(0)} %)`);
  console.log(
    `page context per LLM step: max ${summary.contextTokensPerStep.max}, p50 ${summary.contextTokensPerStep.p50} tokens (o200k); on SQLite's lang_select.html: max ${summary.sqliteContextTokensPerStep.max}, p50 ${summary.sqliteContextTokensPerStep.p50} over ${summary.sqliteContextTokensPerStep.steps} steps`,
  );
  const dir = join(process.cwd(), 'eval-output');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'results.json'), `${JSON.stringify({ summary, results }, null, 2)}\n`);
  console.log(`wrote ${join('eval-output', 'results.json')}`);
  process.exit(0);
}
