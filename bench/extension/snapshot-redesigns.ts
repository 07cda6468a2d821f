// The three redesigns of the page-model snapshot that its profile (snapshot-profile.ts) points to,
// each measured beside today's snapshot and Playwright's ariaSnapshot() in the same tab:
//  1. incremental: keep the tree and refetch only what Chrome reports changed
//     (Accessibility.nodesUpdated). Probed on a small page for which changes are reported at all,
//     and the cost of the set-up the events need (one getChildAXNodes per parent) on the big pages;
//  2. lazy: ask Chrome only for the listed roles (Accessibility.queryAXTree with a role, one call
//     per role, through chrome.debugger as the extension pays it);
//  3. in the page: the listed nodes' roles and names computed by a script in the page (as
//     Playwright does), with dom-accessibility-api's role and accessible-name computation.
//   node --import tsx bench/extension/snapshot-redesigns.ts      (MIMO_BENCH_ROUNDS=8 by default)
import { build } from 'esbuild';
import type { CDPSession } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { LISTED_ROLES } from '../../extension/background/ax-model.ts';
import { serveCorpus } from '../../extension/test/e2e/corpus-site.ts';
import { pageOf, startE2eEnv, startTask } from '../../extension/test/e2e/e2e-util.ts';

const ROUNDS = Number(process.env.MIMO_BENCH_ROUNDS ?? 8);
const PAGES = ['/sqlite-doc/lang_select.html', '/local/many-controls.html?n=500'];
/** The ARIA roles ax-model.ts lists whatever their focus (not Chrome's own), and header cells and dialogs, which it reads too. */
const ROLES = [...LISTED_ROLES].filter((role) => /^[a-z]/.test(role)).concat(['columnheader', 'dialog', 'alertdialog']);

const inPageScript = (
  await build({
    entryPoints: [fileURLToPath(new URL('./in-page-model.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    write: false,
  })
).outputFiles[0]!.text;

/** Runs in the service worker (a string: the worker gets no bundler helpers). */
const WORKER_QUERY = `async ({ tabId, roles }) => {
  const send = (method, params = {}) => globalThis.chrome.debugger.sendCommand({ tabId }, method, params);
  const { root } = await send('DOM.getDocument', { depth: 0 });
  const started = performance.now();
  let found = 0;
  for (const role of roles) found += (await send('Accessibility.queryAXTree', { backendNodeId: root.backendNodeId, role })).nodes.length;
  return { ms: performance.now() - started, found };
}`;

/** What the incremental design must do before Chrome reports a node's changes: fetch it with getChildAXNodes. */
const WORKER_REQUEST_ALL = `async ({ tabId }) => {
  const send = (method, params = {}) => globalThis.chrome.debugger.sendCommand({ tabId }, method, params);
  await send('Accessibility.enable');
  const started = performance.now();
  const { node } = await send('Accessibility.getRootAXNode');
  let calls = 0;
  const seen = new Set([node.nodeId]);
  const queue = [node];
  while (queue.length) {
    const next = queue.shift();
    if (!next.childIds || next.childIds.length === 0) continue;
    calls++;
    for (const child of (await send('Accessibility.getChildAXNodes', { id: next.nodeId })).nodes)
      if (!seen.has(child.nodeId)) seen.add(child.nodeId), queue.push(child);
  }
  return { ms: performance.now() - started, calls, nodes: seen.size };
}`;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const figure = (values: number[]) =>
  `p50 ${quantile(values, 0.5).toFixed(0)} / p90 ${quantile(values, 0.9).toFixed(0)}`;

/** Which changes Chrome reports after a full tree, and after the nodes were fetched one parent at a time. */
async function probeNodesUpdated(cdp: CDPSession, mutate: (step: string) => Promise<void>) {
  const seen: string[] = [];
  cdp.on('Accessibility.nodesUpdated', (event: { nodes: Array<{ role?: { value?: unknown } }> }) => {
    for (const node of event.nodes) seen.push(String(node.role?.value));
  });
  await cdp.send('Accessibility.enable');
  await cdp.send('Accessibility.getFullAXTree');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  await mutate('after getFullAXTree');
  await settle();
  const afterFull = seen.splice(0);
  type Fetched = { nodeId: string; childIds?: string[] };
  const queue = [((await cdp.send('Accessibility.getRootAXNode')) as { node: Fetched }).node];
  const fetched = new Set(queue.map((n) => n.nodeId));
  while (queue.length) {
    const next = queue.shift()!;
    if (!next.childIds?.length) continue;
    const { nodes } = (await cdp.send('Accessibility.getChildAXNodes', { id: next.nodeId })) as { nodes: Fetched[] };
    for (const child of nodes) if (!fetched.has(child.nodeId)) (fetched.add(child.nodeId), queue.push(child));
  }
  await mutate('after every node was fetched with getChildAXNodes');
  await settle();
  const afterFetched = seen.splice(0);
  await mutate('again (a later change flushes the earlier one)');
  await settle();
  return { afterFull, afterFetched, afterSecond: seen.splice(0) };
}

const env = await startE2eEnv('playwright');
const corpus = await serveCorpus();
try {
  const worker = await env.serviceWorker();
  const probeTab = await startTask(env, env.driver, '/local/many-controls.html?n=2', corpus);
  const probePage = await pageOf(env, '/local/many-controls.html');
  const probe = await probeNodesUpdated(await probePage.context().newCDPSession(probePage), async (step) => {
    await probePage.evaluate((label) => {
      const deep = document.querySelector('button');
      deep?.setAttribute('aria-expanded', String(deep.getAttribute('aria-expanded') !== 'true'));
      const added = document.createElement('button');
      added.textContent = label;
      (document.querySelector('main') ?? document.body).lastElementChild?.append(added);
    }, step);
  });
  console.log(
    `1. Accessibility.nodesUpdated: ${probe.afterFull.length} nodes reported after getFullAXTree and two changes;` +
      ` after every node was fetched with getChildAXNodes: ${probe.afterFetched.length} (${probe.afterFetched.join(', ')}),` +
      ` after the next change: ${probe.afterSecond.length} (${probe.afterSecond.join(', ')})`,
  );
  // What each source can see: a switch whose role, name and state are set through ElementInternals
  // (as web-component libraries do), and an icon button named by CSS generated content.
  await probePage.evaluate(() => {
    document.body.innerHTML =
      '<x-toggle></x-toggle><style>.ic::before{content:"Close"}</style><button class="ic"></button>';
    customElements.define(
      'x-toggle',
      class extends HTMLElement {
        connectedCallback() {
          const internals = this.attachInternals();
          internals.role = 'switch';
          internals.ariaChecked = 'true';
          internals.ariaLabel = 'Dark mode';
          this.tabIndex = 0;
        }
      },
    );
  });
  await probePage.evaluate(inPageScript);
  const fidelity = await env.driver.send('browser_dom_index', { tabId: probeTab, scope: 'document' });
  const chromeSees = (
    (fidelity.result.result?.elements ?? []) as Array<{ role?: string; text?: string; label?: string }>
  )
    .map((e) => `${e.role} "${e.label ?? e.text ?? ''}"`)
    .join(', ');
  const pageSees = ((await probePage.evaluate('globalThis.__inPageModel()')) as Array<{ role: string; name: string }>)
    .map((e) => `${e.role} "${e.name}"`)
    .join(', ');
  const playwrightSees = (await probePage.locator('body').ariaSnapshot()).replace(/\n/g, ', ');
  console.log(
    `   fidelity: today (Chrome's tree) ${chromeSees}; Playwright ${playwrightSees}; in the page ${pageSees}`,
  );
  await env.driver.send('task_stop', { closeTab: true });

  // The same on a real library: Fluent UI's menu button gets its role through ElementInternals.
  const fluentTab = await startTask(env, env.driver, '/fluent/pages/widgets.html', corpus);
  const fluentPage = await pageOf(env, '/fluent/pages/widgets.html');
  await fluentPage.waitForFunction(() => customElements.get('fluent-menu-button') !== undefined);
  await fluentPage.evaluate(inPageScript);
  const fluentIndex = await env.driver.send('browser_dom_index', { tabId: fluentTab, scope: 'document' });
  const editButton = (roles: Array<{ role?: string; name?: string }>) =>
    roles.some((e) => e.role === 'button' && e.name === 'Edit') ? 'lists button "Edit"' : 'has no button "Edit"';
  const listedByChrome = (
    (fluentIndex.result.result?.elements ?? []) as Array<{ role?: string; text?: string; label?: string }>
  ).map((e) => ({ role: e.role, name: e.label ?? e.text }));
  const listedInPage = (await fluentPage.evaluate('globalThis.__inPageModel()')) as Array<{
    role: string;
    name: string;
  }>;
  const ariaLines = (await fluentPage.locator('body').ariaSnapshot()).split('\n');
  console.log(
    `   Fluent UI's menu button: today (Chrome's tree) ${editButton(listedByChrome)}; Playwright ` +
      `${ariaLines.some((line) => /button "Edit"/.test(line)) ? 'lists button "Edit"' : 'has no button "Edit"'}; ` +
      `in the page ${editButton(listedInPage)}`,
  );
  await env.driver.send('task_stop', { closeTab: true });

  for (const path of PAGES) {
    const tabId = await startTask(env, env.driver, path, corpus);
    const page = await pageOf(env, path.split('?')[0]!);
    await page.evaluate(inPageScript);
    const rows: Record<string, number[]> = {};
    const add = (key: string, value: number) => (rows[key] ??= []).push(value);
    let listed = { ours: 0, inPage: 0, queried: 0 };
    for (let i = 0; i < ROUNDS + 1; i++) {
      const indexed = await env.driver.send('browser_dom_index', { tabId, scope: 'document' });
      let t = performance.now();
      await page.locator('body').ariaSnapshot();
      const aria = performance.now() - t;
      t = performance.now();
      const inPage = (await page.evaluate('globalThis.__inPageModel().length')) as number;
      const inPageMs = performance.now() - t;
      // One query per role walks the whole tree each time: on the big page it outlasts the debugger's
      // idle detach, so it is timed on the first page only (its figure there settles the question).
      const queried =
        path === PAGES[0]
          ? ((await worker.evaluate(`(${WORKER_QUERY})(${JSON.stringify({ tabId, roles: ROLES })})`)) as {
              ms: number;
              found: number;
            })
          : undefined;
      listed = {
        ours: (indexed.result.result?.elements as unknown[] | undefined)?.length ?? 0,
        inPage,
        queried: queried?.found ?? 0,
      };
      if (i === 0) continue; // warm-up
      add('today: browser_dom_index (end to end)', indexed.totalMs);
      add("Playwright's ariaSnapshot()", aria);
      if (queried) add('2. queryAXTree per listed role, chrome.debugger', queried.ms);
      add('3. in the page (dom-accessibility-api)', inPageMs);
    }
    if (path !== PAGES[0]) {
      console.log(
        `${path}: listed ${listed.ours} today, ${listed.inPage} in the page, ${listed.queried} by role; ${ROUNDS} rounds, ms`,
      );
      for (const [key, values] of Object.entries(rows)) console.log(`  ${key.padEnd(48)} ${figure(values)}`);
      await env.driver.send('task_stop', { closeTab: true });
      continue;
    }
    const requested = (await worker.evaluate(`(${WORKER_REQUEST_ALL})(${JSON.stringify({ tabId })})`)) as {
      ms: number;
      calls: number;
      nodes: number;
    };
    console.log(
      `${path}: listed ${listed.ours} today, ${listed.inPage} in the page, ${listed.queried} by role; ${ROUNDS} rounds, ms`,
    );
    for (const [key, values] of Object.entries(rows)) console.log(`  ${key.padEnd(48)} ${figure(values)}`);
    console.log(
      `  1. set-up for nodesUpdated: ${requested.calls} getChildAXNodes calls (${requested.nodes} nodes), ${requested.ms.toFixed(0)} ms`,
    );
    await env.driver.send('task_stop', { closeTab: true });
  }
} finally {
  await corpus.close();
  await env.close();
}
process.exit(0);
