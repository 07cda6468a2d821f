// batch_extract_pages end to end: MCP client -> /mcp -> run manager -> runMachine -> scheduler ->
// fake plugin answering with fixtures/site pages. Sync, async, auto; partial_success and failed
// by threshold; the URL policy before and after redirects; the tab window; tabs closed; chunks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { eventually } from '../../test/util.ts';
import type { FakePage } from './fake-browser.ts';
import { gate, startMcp, waitForRun, type McpHarness } from './mcp-harness.ts';
import { loadSitePages } from './site-pages.ts';

interface Ctx {
  site: FixtureSite;
  pages: Record<string, FakePage>;
  h?: McpHarness;
}

const batch = suite<Ctx>('batch_extract_pages');

batch.before(async (ctx) => {
  ctx.site = await serveFixtureSite();
  ctx.pages = await loadSitePages(ctx.site, ['/article.html', '/products.html', '/form.html', '/index.html']);
});
batch.after(async (ctx) => {
  await ctx.site.close();
});
batch.after.each(async (ctx) => {
  await ctx.h?.close();
  ctx.h = undefined;
});

batch('a page that answers HTTP 404 or 500 is a failed item, not an extracted success', async (ctx) => {
  const missing = `${ctx.site.url}/missing.html`;
  const broken = `${ctx.site.url}/broken.html`;
  const pages = {
    ...ctx.pages,
    [missing]: { title: 'Not Found', text: 'not found', httpStatus: 404 },
    [broken]: { title: 'Oops', text: 'Internal error', httpStatus: 500 },
  };
  const h = (ctx.h = await startMcp({ pages }));
  const urls = [`${ctx.site.url}/article.html`, missing, broken];
  const run = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    templateVersion: '1.0.0',
    inputs: { urls },
    options: { mode: 'sync' },
  });
  assert.equal(run.result.summary, { total: 3, succeeded: 1, failed: 2, skipped: 0 });
  assert.is(run.status, 'failed', 'one of three is below the 50 % threshold');
  const [, notFound, serverError] = run.result.items;
  assert.equal(
    [notFound.success, notFound.error.code, notFound.error.cause],
    [false, 'EXECUTION_ERROR', 'NAVIGATION_FAILED'],
  );
  assert.match(notFound.error.message, /answered HTTP 404/);
  assert.match(serverError.error.message, /answered HTTP 500/);
  assert.is(notFound.text, undefined);
});

batch('sync: every fixture page read in its own tab, tabs closed, result and artifacts inline', async (ctx) => {
  const h = (ctx.h = await startMcp({ pages: ctx.pages }));
  const urls = ['/article.html', '/products.html', '/form.html'].map((p) => ctx.site.url + p);
  const run = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    templateVersion: '1.0.0',
    inputs: { urls },
    options: { mode: 'sync' },
  });
  assert.is(run.status, 'succeeded');
  assert.match(run.runId, /^run_[0-9A-Z]{26}$/);
  assert.equal(run.progress, { totalSteps: 3, doneSteps: 3 });
  assert.equal(run.result.summary, { total: 3, succeeded: 3, failed: 0, skipped: 0 });
  assert.equal(
    run.result.items.map((i: any) => i.title),
    ['A Short History of the Teapot', 'Products', 'Contact form'],
  );
  assert.match(run.result.items[0].text, /Yixing region during the Ming dynasty/);
  assert.ok(run.result.items.every((i: any) => i.success === true && i.finalUrl === i.url));
  assert.equal(
    run.artifacts.map((a: any) => a.type),
    ['json', 'csv'],
  );
  assert.ok(run.metrics.elapsedMs >= 0);
  // One tab per URL, each closed after use; the run's own session is gone.
  assert.is(h.browser.opened.length, 3);
  assert.equal([...h.browser.closed].sort(), [...h.browser.opened].sort());
  assert.is(h.browser.tabs.size, 0);
  assert.is(h.routes.mcp.budget.inUse(), 0);
  assert.is(h.routes.mcp.sessions.list().length, 0);
  // The same run, read back.
  const again = await h.ok('get_task_run', { runId: run.runId });
  assert.equal(again.result, run.result);
  assert.is(again.status, 'succeeded');
  // Every action went to the extension under a ULID task id, one per tab.
  const taskIds = new Set(h.browser.actions.map((a) => a.taskId));
  assert.is(taskIds.size, 3);
  for (const id of taskIds) assert.match(id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
});

batch('auto: up to 5 URLs waits (sync), 6 URLs answers at once (async) and finishes in the background', async (ctx) => {
  const h = (ctx.h = await startMcp({ pages: ctx.pages }));
  const article = `${ctx.site.url}/article.html`;
  const small = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: Array(5).fill(article) },
  });
  assert.is(small.status, 'succeeded');
  assert.is(small.mode, 'sync');
  const big = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: Array(6).fill(article) },
    options: { mode: 'auto' },
  });
  assert.is(big.mode, 'async');
  assert.ok(['queued', 'running'].includes(big.status));
  assert.is(big.result, undefined);
  assert.type(big.createdAt, 'number');
  const done = await waitForRun(h, big.runId);
  assert.is(done.status, 'succeeded');
  assert.is(done.result.items.length, 6);
});

batch('async on request: runId at once, get_task_run shows running then the terminal result', async (ctx) => {
  const held = gate();
  const pages = { ...ctx.pages, 'https://held.test/': { title: 'Held', text: 'held page', hold: held.promise } };
  const h = (ctx.h = await startMcp({ pages }));
  const started = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls: ['https://held.test/'] },
    options: { mode: 'async' },
  });
  assert.is(started.mode, 'async');
  await eventually(async () => (await h.ok('get_task_run', { runId: started.runId })).status === 'running');
  const running = await h.ok('get_task_run', { runId: started.runId });
  assert.equal(running.progress, { totalSteps: 1, doneSteps: 0 });
  assert.is(running.result, undefined);
  held.open();
  const done = await waitForRun(h, started.runId);
  assert.is(done.status, 'succeeded');
  assert.is(done.result.items[0].title, 'Held');
});

batch('partial_success: one URL of three fails (ratio 2/3 >= 0.5); items say which and why', async (ctx) => {
  const pages = { ...ctx.pages, 'https://broken.test/': { title: 'Broken', text: '', readError: 'PAGE_PREP_FAILED' } };
  const h = (ctx.h = await startMcp({ pages }));
  const urls = [`${ctx.site.url}/article.html`, 'https://broken.test/', `${ctx.site.url}/products.html`];
  const run = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls },
    options: { mode: 'sync' },
  });
  assert.is(run.status, 'partial_success');
  assert.equal(run.result.summary, { total: 3, succeeded: 2, failed: 1, skipped: 0 });
  assert.equal(
    run.result.items.map((i: any) => i.success),
    [true, false, true],
  );
  assert.is(run.result.items[1].error.code, 'EXECUTION_ERROR');
  assert.match(run.result.items[1].error.message, /extract: readability failed/);
  assert.is(run.error, undefined);
  assert.is(h.browser.tabs.size, 0, 'the failed step closed its tab too');
});

batch(
  'failed by threshold: two of three fail (1/3 < 0.5): STEP_EXECUTION_FAILED with failedStep and stepErrorCode',
  async (ctx) => {
    const pages = {
      ...ctx.pages,
      'https://slow.test/': { title: 'Slow', text: '', loadError: 'NAVIGATION_TIMEOUT' },
      'https://gone.test/': { title: 'Gone', text: '', readError: 'TASK_TAB_CLOSED' },
    };
    const h = (ctx.h = await startMcp({ pages }));
    const urls = ['https://slow.test/', `${ctx.site.url}/article.html`, 'https://gone.test/'];
    const run = await h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      inputs: { urls },
      options: { mode: 'sync' },
    });
    assert.is(run.status, 'failed');
    assert.equal(run.result.summary, { total: 3, succeeded: 1, failed: 2, skipped: 0 });
    assert.is(run.error.errorCode, 'STEP_EXECUTION_FAILED');
    assert.is(run.error.details.failedStep, 'extract-1');
    assert.is(run.error.details.stepErrorCode, 'NAVIGATION_TIMEOUT');
    assert.is(run.error.details.runId, run.runId);
    assert.type(run.error.recoverHint, 'string');
    assert.is(run.result.items[2].error.code, 'PAGE_CRASHED');
  },
);

batch(
  'URL policy: blocked URLs never reach the extension; a redirect to a blocked address is caught after loading',
  async (ctx) => {
    const pages = {
      ...ctx.pages,
      'https://redirector.test/': {
        title: 'Redirect',
        text: 'x',
        redirectTo: 'http://169.254.169.254/latest/meta-data/',
      },
      'http://127.0.0.1/': { title: 'Loopback', text: 'served on loopback' },
    };
    const h = (ctx.h = await startMcp({ pages }));
    const urls = [
      'https://private.test/',
      'file:///etc/passwd',
      'https://redirector.test/',
      `${ctx.site.url}/article.html`,
      'http://0x7f.1/',
    ];
    const run = await h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      inputs: { urls },
      options: { mode: 'sync' },
    });
    assert.equal(
      run.result.items.map((i: any) => i.success),
      [false, false, false, true, true],
    );
    // private.test resolves to 10.1.2.3; file: is not http(s); 0x7f.1 is 127.0.0.1, lifted for the fixture site.
    assert.is(run.result.items[0].error.code, 'INVALID_PARAMETER');
    assert.match(run.result.items[0].error.message, /10\.1\.2\.3/);
    assert.match(run.result.items[1].error.message, /only http\/https/);
    assert.match(run.result.items[2].error.message, /after redirects.*metadata/);
    const started = h.browser.actions.filter((a) => a.name === 'task_start').map((a) => String(a.params.url));
    assert.not.ok(started.includes('https://private.test/'));
    assert.not.ok(started.some((u) => u.startsWith('file:')));
    assert.ok(started.includes('about:blank'), 'the tab that landed on the metadata address was blanked');
    assert.ok(started.includes('http://127.0.0.1/'), 'the extension gets the canonical URL that was checked');
    assert.is(h.browser.tabs.size, 0);
  },
);

batch('the tab window: concurrency 3 keeps at most 3 tabs open at once, and does reach 3', async (ctx) => {
  const held = gate();
  const pages: Record<string, FakePage> = {};
  const urls = Array.from({ length: 8 }, (_, i) => `https://page${i}.test/`);
  for (const url of urls) pages[url] = { title: url, text: `text of ${url}`, hold: held.promise };
  const h = (ctx.h = await startMcp({ pages }));
  const started = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls, concurrency: 3 },
    options: { mode: 'async' },
  });
  await eventually(() => h.browser.tabs.size === 3, 5000, 'three tabs open');
  assert.is(h.routes.mcp.budget.inUse(), 3);
  held.open();
  const done = await waitForRun(h, started.runId);
  assert.is(done.status, 'succeeded');
  assert.is(h.browser.maxOpen, 3);
  assert.is(h.browser.opened.length, 8);
  assert.is(h.browser.tabs.size, 0);
});

batch('progress notifications during a sync run', async (ctx) => {
  const h = (ctx.h = await startMcp({ pages: ctx.pages }));
  const seen: Array<{ progress: number; total?: number }> = [];
  const result = await h.call(
    'run_task_template',
    {
      templateId: 'batch_extract_pages',
      inputs: { urls: [`${ctx.site.url}/article.html`, `${ctx.site.url}/products.html`] },
      options: { mode: 'sync' },
    },
    { onprogress: (p) => seen.push({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}) }) },
  );
  assert.is((result.structuredContent as any).status, 'succeeded');
  assert.ok(seen.length >= 1, 'no progress notification');
  assert.equal(seen[seen.length - 1], { progress: 2, total: 2 });
});

batch.run();
