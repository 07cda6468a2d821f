// The cost of a page-model snapshot: browser_dom_index (scope "document": Chrome's
// accessibility tree over CDP, through the real extension, measured from the server side of the
// socket) beside Playwright's own `locator('body').ariaSnapshot()` of the same tab in the same
// Chromium, alternating, on SQLite's 1.58 MB lang_select.html and on a generated page of a few
// thousand controls. The DOM-heuristic fallback (source "dom") is timed too, for reference, after
// the pairs (it writes attributes into the page). Two small pages with cross-site (out-of-process)
// frames show what reading frames through their child sessions costs.
//   node --import tsx bench/extension/snapshot-cost.ts      (MIMO_BENCH_ROUNDS=20 by default, MIMO_BENCH_PAGES=frame)
import { serveCorpus } from '../../extension/test/e2e/corpus-site.ts';
import { pageOf, startE2eEnv, startTask } from '../../extension/test/e2e/e2e-util.ts';

const ROUNDS = Number(process.env.MIMO_BENCH_ROUNDS ?? 20);
const WARMUP = 2;
/** MIMO_BENCH_PAGES=frame,sqlite: only the pages whose names contain one of these words. */
const PAGES = process.env.MIMO_BENCH_PAGES?.split(',').filter(Boolean);

export interface SnapshotCost {
  page: string;
  elements: number;
  ours: { p50: number; p90: number };
  playwright: { p50: number; p90: number };
  dom: { p50: number; p90: number };
  ratio: { p50: number; p90: number };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

const stats = (values: number[]) => ({
  p50: Math.round(percentile(values, 0.5) * 10) / 10,
  p90: Math.round(percentile(values, 0.9) * 10) / 10,
});

export async function benchSnapshotCost(rounds = ROUNDS): Promise<SnapshotCost[]> {
  const env = await startE2eEnv('playwright');
  const corpus = await serveCorpus();
  const out: SnapshotCost[] = [];
  try {
    const pages = [
      { name: 'sqlite lang_select.html (1.58 MB)', path: '/sqlite-doc/lang_select.html' },
      { name: 'generated, 3,500 controls', path: '/local/many-controls.html?n=500' },
      { name: 'a form in a cross-site frame', path: '/cross-site?src=/local/frame-form.html' },
      { name: 'frames nested in a cross-site frame', path: '/cross-site?src=/local/frame-nest.html' },
    ].filter((p) => !PAGES || PAGES.some((word) => p.name.includes(word)));
    for (const { name, path } of pages) {
      const tabId = await startTask(env, env.driver, path, corpus);
      const page = await pageOf(env, path.split('?')[0]!);
      const ours: number[] = [];
      const playwright: number[] = [];
      const dom: number[] = [];
      let elements = 0;
      for (let i = 0; i < rounds + WARMUP; i++) {
        const indexed = await env.driver.send('browser_dom_index', { tabId, scope: 'document' });
        if (indexed.result.status !== 'success' || indexed.result.result?.source !== 'ax')
          throw new Error(
            `dom_index: ${JSON.stringify((indexed.result.result as { warnings?: unknown } | undefined)?.warnings ?? indexed.result.error)}`,
          );
        elements = (indexed.result.result!.elements as unknown[]).length;
        const started = performance.now();
        await page.locator('body').ariaSnapshot();
        const reference = performance.now() - started;
        if (i < WARMUP) continue;
        ours.push(indexed.totalMs);
        playwright.push(reference);
      }
      // The DOM fallback writes its ids into the page (data-mimo_click_id): timed in a pass of its
      // own, so its style invalidations do not land on the next ariaSnapshot() above.
      for (let i = 0; i < rounds; i++) {
        const fallback = await env.driver.send('browser_dom_index', { tabId, scope: 'document', source: 'dom' });
        dom.push(fallback.totalMs);
      }
      const o = stats(ours);
      const p = stats(playwright);
      out.push({
        page: name,
        elements,
        ours: o,
        playwright: p,
        dom: stats(dom),
        ratio: { p50: Math.round((o.p50 / p.p50) * 100) / 100, p90: Math.round((o.p90 / p.p90) * 100) / 100 },
      });
      await env.driver.send('task_stop', { closeTab: true });
    }
    return out;
  } finally {
    await corpus.close();
    await env.close();
  }
}

export function printSnapshotCost(results: SnapshotCost[]): void {
  console.log(
    'page-model snapshot (browser_dom_index, accessibility tree, through the extension) vs Playwright ariaSnapshot() of the same tab, ms:',
  );
  for (const r of results) {
    console.log(`  ${r.page}: ${r.elements} elements`);
    console.log(`    ours       p50 ${String(r.ours.p50).padStart(7)}  p90 ${String(r.ours.p90).padStart(7)}`);
    console.log(
      `    playwright p50 ${String(r.playwright.p50).padStart(7)}  p90 ${String(r.playwright.p90).padStart(7)}`,
    );
    console.log(
      `    ratio      p50 ${String(r.ratio.p50).padStart(7)}  p90 ${String(r.ratio.p90).padStart(7)}   (goal <= 1.5)`,
    );
    console.log(`    dom fallback p50 ${r.dom.p50}  p90 ${r.dom.p90}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printSnapshotCost(await benchSnapshotCost());
  process.exit(0);
}
