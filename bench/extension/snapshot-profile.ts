// Where a page-model snapshot's time goes, on the two pages of snapshot-cost.ts, interleaved in
// the same tab: browser_dom_index end to end; Playwright's ariaSnapshot(); Accessibility.getFullAXTree
// over Playwright's own CDP pipe (Chrome building and serialising the tree); the same command
// through chrome.debugger in the extension's service worker (what browser_dom_index pays); and a
// string of the same size through chrome.debugger (the channel's cost per byte rather than per object).
//   node --import tsx bench/extension/snapshot-profile.ts      (MIMO_BENCH_ROUNDS=8 by default)
import { serveCorpus } from '../../extension/test/e2e/corpus-site.ts';
import { pageOf, startE2eEnv, startTask } from '../../extension/test/e2e/e2e-util.ts';

const ROUNDS = Number(process.env.MIMO_BENCH_ROUNDS ?? 8);
const PAGES = ['/sqlite-doc/lang_select.html', '/local/many-controls.html?n=500'];

/** Runs in the service worker (a string: the worker gets no bundler helpers). */
const WORKER_PROBE = `async ({ tabId, bytes }) => {
  const send = (method, params = {}) => globalThis.chrome.debugger.sendCommand({ tabId }, method, params);
  let started = performance.now();
  const tree = await send('Accessibility.getFullAXTree', {});
  const tree_ms = performance.now() - started;
  started = performance.now();
  await send('Runtime.evaluate', { expression: "'x'.repeat(" + bytes + ")", returnByValue: true });
  return { tree_ms, string_ms: performance.now() - started, nodes: tree.nodes.length };
}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

const env = await startE2eEnv('playwright');
const corpus = await serveCorpus();
try {
  const worker = await env.serviceWorker();
  for (const path of PAGES) {
    const tabId = await startTask(env, env.driver, path, corpus);
    const page = await pageOf(env, path.split('?')[0]!);
    const cdp = await page.context().newCDPSession(page);
    const rows: Record<string, number[]> = {};
    const add = (key: string, value: number) => (rows[key] ??= []).push(value);
    let bytes = 0;
    let nodes = 0;
    for (let i = 0; i < ROUNDS + 1; i++) {
      const indexed = await env.driver.send('browser_dom_index', { tabId, scope: 'document' });
      let t = performance.now();
      await page.locator('body').ariaSnapshot();
      const aria = performance.now() - t;
      t = performance.now();
      const tree = (await cdp.send('Accessibility.getFullAXTree', {})) as { nodes: unknown[] };
      const raw = performance.now() - t;
      bytes = JSON.stringify(tree).length;
      const probe = (await worker.evaluate(`(${WORKER_PROBE})(${JSON.stringify({ tabId, bytes })})`)) as {
        tree_ms: number;
        string_ms: number;
        nodes: number;
      };
      nodes = probe.nodes;
      if (i === 0) continue; // warm-up
      add('browser_dom_index (end to end)', indexed.totalMs);
      add('Playwright ariaSnapshot()', aria);
      add('getFullAXTree, Playwright CDP pipe', raw);
      add('getFullAXTree, chrome.debugger', probe.tree_ms);
      add('same-size string, chrome.debugger', probe.string_ms);
    }
    console.log(`${path}: ${nodes} AX nodes, ${(bytes / 1e6).toFixed(2)} MB of JSON; medians of ${ROUNDS} rounds, ms`);
    for (const [key, values] of Object.entries(rows)) console.log(`  ${key.padEnd(38)} ${median(values).toFixed(1)}`);
    await env.driver.send('task_stop', { closeTab: true });
  }
} finally {
  await corpus.close();
  await env.close();
}
process.exit(0);
