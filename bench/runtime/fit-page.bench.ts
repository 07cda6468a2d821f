// Fitting a captured page (31 K characters of text, 162 elements) into one step's context, as
// successive steps of a task do after each page read: each step gets the page as a fresh parse
// (new strings, as from the plugin) and fits it to the same budget. CPU per fit, in process; with
// MIMO_BENCH_COMPARE_TREE=<another checkout> its fitPage runs too, rounds interleaved.
//
//   node --import tsx bench/runtime/fit-page.bench.ts   MIMO_BENCH_FITS (per round, default 300), MIMO_BENCH_ROUNDS (default 5),
//     MIMO_BENCH_VARY_BUDGET=1 (budgets that differ by up to 400 tokens from step to step),
//     MIMO_BENCH_WITH_READ=1 (times the read's fullPageOf too, handed the task's previous page as
//     page-read.ts does: an unchanged page is made once, a checkout without that ignores it)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Fit = (page: unknown, options: { budgetTokens: number }) => unknown;
type Of = (input: unknown, previous?: unknown) => unknown;

const fits = Number(process.env.MIMO_BENCH_FITS ?? 300);
const rounds = Number(process.env.MIMO_BENCH_ROUNDS ?? 5);
const vary = process.env.MIMO_BENCH_VARY_BUDGET === '1';
const withRead = process.env.MIMO_BENCH_WITH_READ === '1';
const raw = readFileSync(new URL('./captured/lang_select.page.json', import.meta.url), 'utf8');

async function load(tree: string): Promise<{ fit: Fit; of: Of }> {
  const budget = (await import(pathToFileURL(join(tree, 'runtime/agent/context-budget.ts')).href)) as { fitPage: Fit };
  const page = (await import(pathToFileURL(join(tree, 'runtime/agent/page-context.ts')).href)) as { fullPageOf: Of };
  return { fit: budget.fitPage, of: page.fullPageOf };
}

function round({ fit, of }: { fit: Fit; of: Of }): number {
  let micros = 0;
  let previous: unknown;
  for (let i = 0; i < fits; i++) {
    const input = { tabId: 1, ...(JSON.parse(raw) as object) };
    const cpu0 = withRead ? process.cpuUsage() : undefined;
    const page = of(input, previous);
    if (withRead) previous = page;
    const cpu0fit = cpu0 ?? process.cpuUsage();
    // MIMO_BENCH_VARY_BUDGET=1: each step's budget differs by up to 400 tokens, as the browser state
    // and the tool result around the page do between steps.
    fit(page, { budgetTokens: vary ? 3_000 - ((i * 37) % 400) : 3_000 });
    const cpu = process.cpuUsage(cpu0fit);
    micros += cpu.user + cpu.system;
  }
  return micros / fits;
}

const compare = process.env.MIMO_BENCH_COMPARE_TREE;
const variants: Array<[string, { fit: Fit; of: Of }]> = [
  ['ours', await load(resolve(new URL('../..', import.meta.url).pathname))],
];
if (compare) variants.unshift(['base', await load(resolve(compare))]);
const results = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (const [, v] of variants) round(v); // warm up
for (let r = 1; r <= rounds; r++)
  for (const [name, v] of variants) {
    const micros = round(v);
    results.get(name)!.push(micros);
    console.log(`  ${name} ${r}  CPU/fit ${micros.toFixed(0)} µs`);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, xs] of results) console.log(`${name}: median CPU/fit ${median(xs).toFixed(0)} µs`);
if (compare) console.log(`ours / base: ${(median(results.get('ours')!) / median(results.get('base')!)).toFixed(2)}x`);
