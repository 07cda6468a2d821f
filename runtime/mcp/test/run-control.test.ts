// Run lifecycle through MCP: cooperative cancel mid-run, the maxConcurrentRuns queue, the
// effective timeout and RUN_TIMEOUT on a simulated clock, list_task_runs filters and paging,
// request refusals with the seed's codes, and runs persisted across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock } from 'xstate';
import { eventually, settle } from '../../test/util.ts';
import { createMemoryRunStore, createRunStore } from '../runs/run-store.ts';
import type { FakePage } from './fake-browser.ts';
import { gate, startMcp, waitForRun, type McpHarness } from './mcp-harness.ts';

const pagesHeldBy = (
  hold: Promise<void>,
  count: number,
  prefix = 'p',
): { urls: string[]; pages: Record<string, FakePage> } => {
  const urls = Array.from({ length: count }, (_, i) => `https://${prefix}${i}.test/`);
  return { urls, pages: Object.fromEntries(urls.map((url) => [url, { title: url, text: `about ${url}`, hold }])) };
};

const control = suite<{ h?: McpHarness }>('run control');

control.after.each(async (ctx) => {
  await ctx.h?.close();
  ctx.h = undefined;
});

control('cancel mid-run: the running step finishes, pending steps are skipped, the run ends canceled', async (ctx) => {
  const held = gate();
  const { urls, pages } = pagesHeldBy(held.promise, 4);
  const h = (ctx.h = await startMcp({ pages }));
  const { runId } = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    inputs: { urls, concurrency: 1 },
    options: { mode: 'async' },
  });
  await eventually(() => h.browser.tabs.size === 1, 5000, 'first step running');
  const answer = await h.ok('cancel_task_run', { runId });
  assert.equal(answer, { runId, cancelRequested: true, currentStatus: 'running' });
  assert.is((await h.ok('get_task_run', { runId })).cancelRequested, true);
  held.open();
  const run = await waitForRun(h, runId);
  assert.is(run.status, 'canceled');
  assert.equal(
    run.steps.map((s: any) => s.status),
    ['succeeded', 'skipped', 'skipped', 'skipped'],
  );
  assert.equal(run.result.summary, { total: 4, succeeded: 1, failed: 0, skipped: 3 });
  assert.is(run.result.items[0].success, true, 'the partial result stays readable');
  assert.is(run.error.errorCode, 'RUN_CANCELED');
  assert.is(h.browser.opened.length, 1, 'no step started after the cancel');
  assert.is(h.browser.tabs.size, 0);
  assert.equal(await h.ok('cancel_task_run', { runId }), { runId, cancelRequested: false, currentStatus: 'canceled' });
  const missing = await h.fail('cancel_task_run', { runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
  assert.is(missing.errorCode, 'RUN_NOT_FOUND');
});

control('maxConcurrentRuns: extra runs wait queued (FIFO); a queued run cancels at once', async (ctx) => {
  const held = gate();
  const { urls, pages } = pagesHeldBy(held.promise, 4);
  const h = (ctx.h = await startMcp({ pages, routes: { maxConcurrentRuns: 2 } }));
  const start = (url: string) =>
    h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      inputs: { urls: [url] },
      options: { mode: 'async' },
    });
  const a = await start(urls[0]!);
  const b = await start(urls[1]!);
  const c = await start(urls[2]!);
  const d = await start(urls[3]!);
  await eventually(() => h.browser.tabs.size === 2, 5000, 'two runs running');
  const queued = await h.ok('list_task_runs', { status: 'queued' });
  assert.equal(queued.runs.map((r: any) => r.runId).sort(), [c.runId, d.runId].sort());
  assert.is((await h.ok('get_runtime_profile')).load.runningRuns, 2);
  assert.equal(await h.ok('cancel_task_run', { runId: d.runId }), {
    runId: d.runId,
    cancelRequested: true,
    currentStatus: 'canceled',
  });
  held.open();
  for (const run of [a, b, c]) assert.is((await waitForRun(h, run.runId)).status, 'succeeded');
  const canceled = await waitForRun(h, d.runId);
  assert.is(canceled.status, 'canceled');
  assert.equal(
    canceled.steps.map((s: any) => s.status),
    ['skipped'],
  );
  assert.is(h.browser.opened.length, 3);
});

control(
  'effective timeout = min(options.timeoutMs, template max, runtime max); RUN_TIMEOUT fails the run and closes its tab',
  async (ctx) => {
    const clock = new SimulatedClock();
    const held = gate();
    const { urls, pages } = pagesHeldBy(held.promise, 2);
    const h = (ctx.h = await startMcp({ pages, routes: { actorClock: clock, maxRunTimeoutMs: 60_000 } }));
    const tryTimeout = async (templateId: string, inputs: object, timeoutMs?: number) => {
      const run = await h.ok('run_task_template', {
        templateId,
        inputs,
        options: { mode: 'async', ...(timeoutMs ? { timeoutMs } : {}) },
      });
      return run;
    };
    const long = await tryTimeout('batch_extract_pages', { urls: [urls[0]] }, 10_000_000);
    assert.is((await h.ok('get_task_run', { runId: long.runId })).timeoutMs, 60_000, 'runtime max');
    const cmp = await tryTimeout('multi_tab_compare', { urls }, undefined);
    assert.is(
      (await h.ok('get_task_run', { runId: cmp.runId })).timeoutMs,
      60_000,
      'template default bounded by the runtime max',
    );
    await h.ok('cancel_task_run', { runId: cmp.runId });
    await eventually(() => h.browser.tabs.size >= 1, 5000, 'the first run has a tab');
    clock.increment(59_999);
    assert.is((await h.ok('get_task_run', { runId: long.runId })).status, 'running');
    clock.increment(1);
    const failed = await waitForRun(h, long.runId);
    assert.is(failed.status, 'failed');
    assert.is(failed.error.errorCode, 'RUN_TIMEOUT');
    assert.is(failed.error.details.timeoutMs, 60_000);
    assert.equal(
      failed.steps.map((s: any) => s.status),
      ['failed'],
    );
    held.open();
    await eventually(() => h.browser.tabs.size === 0, 5000, 'the timed-out step closed its tab');
    await waitForRun(h, cmp.runId);
    const short = await h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      inputs: { urls: [urls[0]] },
      options: { mode: 'async', timeoutMs: 1234 },
    });
    assert.is((await h.ok('get_task_run', { runId: short.runId })).timeoutMs, 1234, 'the caller asked for less');
  },
);

control('list_task_runs: newest first, filtered by status and template, paged', async (ctx) => {
  const h = (ctx.h = await startMcp({
    pages: { 'https://a.test/': { title: 'A', text: 'a' }, 'https://b.test/': { title: 'B', text: 'b' } },
  }));
  const ids: string[] = [];
  for (const url of ['https://a.test/', 'https://b.test/', 'https://a.test/']) {
    ids.push(
      (
        await h.ok('run_task_template', {
          templateId: 'batch_extract_pages',
          inputs: { urls: [url] },
          options: { mode: 'sync' },
        })
      ).runId,
    );
  }
  ids.push(
    (
      await h.ok('run_task_template', {
        templateId: 'multi_tab_compare',
        inputs: { urls: ['https://a.test/', 'https://b.test/'] },
      })
    ).runId,
  );
  const all = await h.ok('list_task_runs', {});
  assert.equal(
    all.runs.map((r: any) => r.runId),
    [...ids].reverse(),
  );
  assert.is(all.total, 4);
  assert.equal(Object.keys(all.runs[0]).sort(), ['createdAt', 'runId', 'status', 'templateId', 'updatedAt']);
  const batchOnly = await h.ok('list_task_runs', {
    templateId: 'batch_extract_pages',
    status: 'succeeded',
    limit: 2,
    offset: 1,
  });
  assert.equal(
    batchOnly.runs.map((r: any) => r.runId),
    [ids[1], ids[0]],
  );
  assert.is(batchOnly.total, 3);
  assert.equal((await h.ok('list_task_runs', { status: 'failed' })).runs, []);
  assert.is((await h.fail('list_task_runs', { limit: 101 })).errorCode, 'INVALID_PARAMETER');
  assert.is((await h.fail('list_task_runs', { status: 'done' })).errorCode, 'INVALID_PARAMETER');
});

control('refusals: template, version, inputs, session, trust level, run id; nothing is created', async (ctx) => {
  const h = (ctx.h = await startMcp({ routes: { trustLevel: 'remote' } }));
  const refuse = async (args: Record<string, unknown>, code: string) => {
    const error = await h.fail('run_task_template', args);
    assert.is(error.errorCode, code, JSON.stringify(args));
    assert.type(error.recoverHint, 'string');
    return error;
  };
  const urls = ['https://a.test/'];
  const notFound = await refuse({ templateId: 'nope', inputs: { urls } }, 'TEMPLATE_NOT_FOUND');
  assert.ok(notFound.details.available.includes('batch_extract_pages'));
  await refuse(
    { templateId: 'batch_extract_pages', templateVersion: '2.0.0', inputs: { urls } },
    'TEMPLATE_VERSION_UNSUPPORTED',
  );
  await refuse(
    { templateId: 'batch_extract_pages', templateVersion: '1.1.0', inputs: { urls } },
    'TEMPLATE_VERSION_UNSUPPORTED',
  );
  await refuse(
    { templateId: 'batch_extract_pages', templateVersion: 'latest', inputs: { urls } },
    'TEMPLATE_VERSION_UNSUPPORTED',
  );
  const badInputs = await refuse({ templateId: 'batch_extract_pages', inputs: { urls: [] } }, 'INVALID_PARAMETER');
  assert.is(badInputs.details.issues[0].path, 'inputs.urls');
  await refuse(
    { templateId: 'batch_extract_pages', inputs: { urls: Array(1001).fill('https://a.test/') } },
    'INVALID_PARAMETER',
  );
  await refuse({ templateId: 'batch_extract_pages', inputs: { urls, extra: 1 } }, 'INVALID_PARAMETER');
  await refuse({ templateId: 'batch_extract_pages', inputs: { urls, concurrency: 6 } }, 'INVALID_PARAMETER');
  await refuse(
    { templateId: 'batch_extract_pages', inputs: { urls }, options: { mode: 'later' } },
    'INVALID_PARAMETER',
  );
  await refuse({ templateId: 'batch_extract_pages', sessionId: 'sess_unknown', inputs: { urls } }, 'SESSION_NOT_FOUND');
  await refuse({ templateId: 'batch_extract_pages', sessionId: 'bad id!', inputs: { urls } }, 'INVALID_PARAMETER');
  const trust = await refuse(
    { templateId: 'login_keep_session', inputs: { loginUrl: 'https://a.test/login', username: 'u', password: 'p' } },
    'TRUST_LEVEL_NOT_ALLOWED',
  );
  assert.equal(trust.details.trustLevelSupport, ['local']);
  assert.is(trust.details.trustLevel, 'remote');
  assert.is((await h.fail('get_task_run', { runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV' })).errorCode, 'RUN_NOT_FOUND');
  assert.is((await h.ok('list_task_runs', {})).total, 0);
  // A remote connection may still run templates that support it, and older minor versions.
  const ok = await h.ok('run_task_template', {
    templateId: 'batch_extract_pages',
    templateVersion: '1',
    inputs: { urls: ['https://a.test/'] },
    options: { mode: 'async' },
  });
  assert.is(ok.templateId, 'batch_extract_pages');
  assert.is((await h.ok('get_task_run', { runId: ok.runId })).trustLevel, 'remote');
});

control(
  'no extension connected: every step fails, the run is failed, items carry PLUGIN_OFFLINE as the cause',
  async (ctx) => {
    const h = (ctx.h = await startMcp({ plugin: false }));
    const run = await h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      inputs: { urls: ['https://a.test/', 'https://b.test/'] },
      options: { mode: 'sync' },
    });
    assert.is(run.status, 'failed');
    assert.is(run.error.details.stepErrorCode, 'EXECUTION_ERROR');
    assert.equal(
      run.result.items.map((i: any) => i.error.cause),
      ['PLUGIN_OFFLINE', 'PLUGIN_OFFLINE'],
    );
    assert.is(h.routes.mcp.budget.inUse(), 0);
  },
);

control(
  'shared store (cluster mode): run_task_template answers only once the store has the run, so any node can read the runId',
  async (ctx) => {
    const memory = createMemoryRunStore();
    const landed = gate();
    const puts: string[] = [];
    const landedRuns = new Map<string, unknown>();
    // A shared store is one with get(): writes wait on `landed`, as a slow PostgreSQL would.
    const shared = {
      ...memory,
      put: async (run: any) => {
        puts.push(run.status);
        await landed.promise;
        landedRuns.set(run.runId, structuredClone(run));
        return memory.put(run);
      },
      get: async (runId: string) => landedRuns.get(runId) as never,
    };
    const h = (ctx.h = await startMcp({
      pages: { 'https://one.test/': { title: 'One', text: 'one' } },
      routes: { runStore: shared as never },
    }));
    let answered = false;
    const call = h
      .ok('run_task_template', {
        templateId: 'batch_extract_pages',
        inputs: { urls: ['https://one.test/'] },
        options: { mode: 'async' },
      })
      .then((r) => ((answered = true), r));
    await eventually(() => puts.length >= 1, 5000, 'the first write to start');
    await settle(20);
    assert.is(answered, false, 'no runId before the store has the run');
    landed.open();
    const { runId } = await call;
    assert.ok(await shared.get(runId), 'the stored run is readable when the runId is handed out');
  },
);

const persist = suite('persistence');

persist(
  'runs are stored under the data dir and read back after a restart; an interrupted run becomes canceled',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mimo-mcp-runs-'));
    try {
      const pages = { 'https://a.test/': { title: 'A', text: 'alpha' } };
      const firstStore = createRunStore({ dataDir: dir });
      const first = await startMcp({ pages, routes: { runStore: firstStore } });
      const done = await first.ok('run_task_template', {
        templateId: 'batch_extract_pages',
        inputs: { urls: ['https://a.test/'] },
        options: { mode: 'sync' },
      });
      await first.close();
      await firstStore.flush();

      // A run left "running" by a crash, written as the store writes it.
      const crashStore = createRunStore({ dataDir: dir });
      await crashStore.put({
        ...(await storedRun(dir, done.runId)),
        runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        status: 'running',
        steps: [{ stepId: 'extract-1', status: 'running' }],
        result: undefined,
        artifacts: undefined,
      });
      await crashStore.flush();

      const secondStore = createRunStore({ dataDir: dir });
      const second = await startMcp({ pages, routes: { runStore: secondStore } });
      try {
        const back = await second.ok('get_task_run', { runId: done.runId });
        assert.is(back.status, 'succeeded');
        assert.equal(back.result, done.result);
        const interrupted = await second.ok('get_task_run', { runId: 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
        assert.is(interrupted.status, 'canceled');
        assert.is(interrupted.error.errorCode, 'RUN_CANCELED');
        assert.is(interrupted.error.details.reason, 'server_restart');
        assert.equal(interrupted.steps, [{ stepId: 'extract-1', status: 'skipped' }]);
        assert.is((await second.ok('list_task_runs', {})).total, 2);
      } finally {
        await second.close();
        // The restart's own writes (the interrupted run marked canceled) land before the folder goes.
        await secondStore.flush();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

async function storedRun(dir: string, runId: string): Promise<any> {
  const { readFile } = await import('node:fs/promises');
  const doc = JSON.parse(await readFile(join(dir, 'mcp-runs', `${runId}.json`), 'utf8'));
  assert.is(doc.version, 1);
  return doc.run;
}

control.run();
persist.run();
