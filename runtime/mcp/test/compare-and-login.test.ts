// multi_tab_compare against fixtures/site pages, and login_keep_session against a login page the
// fake browser serves (fixtures/site has no login page): fields found, submit by click or Enter,
// verification, atomic failure, the kept session continued by another run and by browser-shell.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import { createMemoryRunStore } from '../runs/run-store.ts';
import type { FakePage } from './fake-browser.ts';
import { startMcp, type McpHarness } from './mcp-harness.ts';
import { loadSitePages } from './site-pages.ts';

interface Ctx {
  site: FixtureSite;
  pages: Record<string, FakePage>;
  h?: McpHarness;
}

const compare = suite<Ctx>('multi_tab_compare');

compare.before(async (ctx) => {
  ctx.site = await serveFixtureSite();
  ctx.pages = await loadSitePages(ctx.site, ['/article.html', '/products.html', '/form.html']);
});
compare.after(async (ctx) => ctx.site.close());
compare.after.each(async (ctx) => {
  await ctx.h?.close();
  ctx.h = undefined;
});

compare(
  'compares the pages: word counts, keywords, prices, distinctive terms; tabs in parallel, all closed',
  async (ctx) => {
    const h = (ctx.h = await startMcp({ pages: ctx.pages }));
    const [article, products, form] = ['/article.html', '/products.html', '/form.html'].map(
      (p) => ctx.site.url + p,
    ) as [string, string, string];
    const run = await h.ok('run_task_template', {
      templateId: 'multi_tab_compare',
      inputs: { urls: [article, products, form], keywords: ['teapot', 'porcelain'] },
    });
    assert.is(run.mode, 'sync');
    assert.is(run.status, 'succeeded');
    const { comparison, items } = run.result;
    assert.equal(comparison.compared, [article, products, form]);
    assert.is(comparison.longest, article);
    assert.is(comparison.keywords.teapot[article] >= 5, true);
    assert.is(comparison.keywords.porcelain[products], 1);
    assert.is(comparison.keywords.teapot[form], 0);
    assert.is(comparison.bestKeywordMatch, article);
    assert.equal(comparison.prices[products], { min: 9.95, max: 120.5, count: 5 });
    assert.is(comparison.cheapest, products);
    assert.ok(comparison.uniqueTerms[article].includes('earthenware'));
    assert.ok(comparison.uniqueTerms[products].includes('bamboo'));
    assert.ok(comparison.uniqueTerms[form].includes('contact'));
    assert.not.ok(comparison.uniqueTerms[products].includes('teapot'), 'shared with the article, so not unique');
    assert.equal(
      items.map((i: any) => i.title),
      ['A Short History of the Teapot', 'Products', 'Contact form'],
    );
    assert.is(h.browser.opened.length, 3);
    assert.is(h.browser.tabs.size, 0);
    assert.equal(
      run.artifacts.map((a: any) => a.type),
      ['json'],
    );
  },
);

compare('a page that fails is left out: partial_success with two of three; failed with none of two', async (ctx) => {
  const pages = {
    ...ctx.pages,
    'https://down.test/': { title: 'Down', text: '', loadError: 'NAVIGATION_TIMEOUT' },
    'https://down2.test/': { title: 'Down', text: '', readError: 'PAGE_PREP_FAILED' },
  };
  const h = (ctx.h = await startMcp({ pages }));
  const partial = await h.ok('run_task_template', {
    templateId: 'multi_tab_compare',
    inputs: { urls: [`${ctx.site.url}/article.html`, 'https://down.test/', `${ctx.site.url}/products.html`] },
  });
  assert.is(partial.status, 'partial_success');
  assert.equal(partial.result.comparison.compared, [`${ctx.site.url}/article.html`, `${ctx.site.url}/products.html`]);
  assert.is(partial.result.items[1].error.code, 'NAVIGATION_TIMEOUT');
  const failed = await h.ok('run_task_template', {
    templateId: 'multi_tab_compare',
    inputs: { urls: ['https://down.test/', 'https://down2.test/'] },
  });
  assert.is(failed.status, 'failed');
  assert.is(failed.error.errorCode, 'STEP_EXECUTION_FAILED');
  assert.is(failed.result.comparison.longest, null);
  assert.is(
    (await h.fail('run_task_template', { templateId: 'multi_tab_compare', inputs: { urls: ['https://down.test/'] } }))
      .errorCode,
    'INVALID_PARAMETER',
  );
});

const loginPages = (): Record<string, FakePage> => ({
  'https://shop.test/login': {
    title: 'Sign in',
    text: 'Sign in to your account',
    elements: [
      { tag: 'a', text: 'Home', href: 'https://shop.test/', navigatesTo: 'https://shop.test/' },
      { tag: 'input', type: 'email', name: 'email', placeholder: 'you@example.com' },
      {
        tag: 'input',
        type: 'password',
        name: 'password',
        placeholder: 'Password',
        submitsTo: 'https://shop.test/account',
      },
      { tag: 'button', type: 'submit', text: 'Sign in', navigatesTo: 'https://shop.test/account' },
    ],
  },
  'https://shop.test/enter-only': {
    title: 'Sign in',
    text: 'Sign in',
    elements: [
      { tag: 'input', name: 'user', placeholder: 'User name' },
      { tag: 'input', type: 'password', name: 'pw', submitsTo: 'https://shop.test/account' },
    ],
  },
  'https://shop.test/rejects': {
    title: 'Sign in',
    text: 'Sign in',
    elements: [
      { tag: 'input', type: 'text', name: 'login' },
      { tag: 'input', type: 'password', name: 'password' },
      { tag: 'button', text: 'Log in', navigatesTo: 'https://shop.test/rejects' },
    ],
  },
  'https://shop.test/no-form': {
    title: 'Nothing',
    text: 'No form here',
    elements: [{ tag: 'a', text: 'Home', href: 'https://shop.test/' }],
  },
  'https://shop.test/account': {
    title: 'Your account',
    text: 'Welcome back! Orders, addresses.',
    elements: [
      { tag: 'a', text: 'Orders', href: 'https://shop.test/orders' },
      { tag: 'button', text: 'Sign out' },
    ],
  },
  'https://shop.test/orders': { title: 'Orders', text: 'Order #1: teapot' },
});

// Typing a password is a consequential step (issue 23): these runs opt in (MIMO_MCP_CONSEQUENTIAL_STEPS=allow); the default is checked last.
const login = suite<{ h?: McpHarness }>('login_keep_session');

login.after.each(async (ctx) => {
  await ctx.h?.close();
  ctx.h = undefined;
});

login(
  'fills and submits the form, verifies, keeps the session; browser-shell and later runs continue in it',
  async (ctx) => {
    const store = createMemoryRunStore();
    const h = (ctx.h = await startMcp({
      pages: loginPages(),
      routes: { runStore: store, consequentialSteps: 'allow' },
    }));
    const run = await h.ok('run_task_template', {
      templateId: 'login_keep_session',
      inputs: {
        loginUrl: 'https://shop.test/login',
        username: 'ada@example.com',
        password: 'hunter2-secret',
        successTextContains: 'welcome back',
      },
    });
    assert.is(run.status, 'succeeded');
    assert.equal(
      run.steps.map((s: any) => s.stepId),
      ['open_login_page', 'fill_username', 'fill_password', 'submit', 'verify'],
    );
    assert.equal(run.result, {
      sessionId: run.sessionId,
      loggedIn: true,
      url: 'https://shop.test/account',
      title: 'Your account',
      username: 'ada@example.com',
    });
    assert.equal(
      h.browser.typed.map((t) => t.text),
      ['ada@example.com', 'hunter2-secret'],
    );
    assert.is(h.browser.clicks.length, 1);
    // The password is typed, never stored or returned.
    await store.flush();
    const stored = JSON.stringify(await Promise.all([...store.docs.values()].map((d) => d.read())));
    assert.not.ok(stored.includes('hunter2-secret'));
    assert.match(stored, /\[redacted\]/);
    assert.not.ok(JSON.stringify(run).includes('hunter2-secret'));
    // The session (and its tab) stay open.
    assert.ok(h.routes.mcp.sessions.get(run.sessionId));
    assert.is(h.browser.tabs.size, 1);
    const snap = await h.shell(run.sessionId, ['snapshot', '-i']);
    assert.is(snap.exit_code, 0);
    assert.is(snap.data.url, 'https://shop.test/account');
    assert.match(snap.data.snapshot, /link "Orders"/);
    // Another run on the same session: its worker tabs close, the session stays.
    const more = await h.ok('run_task_template', {
      templateId: 'batch_extract_pages',
      sessionId: run.sessionId,
      inputs: { urls: ['https://shop.test/orders'] },
    });
    assert.is(more.status, 'succeeded');
    assert.is(more.sessionId, run.sessionId);
    assert.ok(h.routes.mcp.sessions.get(run.sessionId));
    assert.is(h.browser.tabs.size, 1);
  },
);

login('without a submit button the form is submitted with Enter in the password field', async (ctx) => {
  const h = (ctx.h = await startMcp({ pages: loginPages(), routes: { consequentialSteps: 'allow' } }));
  const run = await h.ok('run_task_template', {
    templateId: 'login_keep_session',
    inputs: {
      loginUrl: 'https://shop.test/enter-only',
      username: 'ada',
      password: 'pw1',
      successUrlContains: '/account',
    },
  });
  assert.is(run.status, 'succeeded');
  assert.equal(
    h.browser.typed.map((t) => [t.text, t.submit]),
    [
      ['ada', false],
      ['pw1', false],
      ['pw1', true],
    ],
  );
  assert.is(h.browser.clicks.length, 0);
});

login(
  'atomic: a rejected login fails at verify; a page without a form fails at the first step and stops the rest',
  async (ctx) => {
    const h = (ctx.h = await startMcp({ pages: loginPages(), routes: { consequentialSteps: 'allow' } }));
    const rejected = await h.ok('run_task_template', {
      templateId: 'login_keep_session',
      inputs: { loginUrl: 'https://shop.test/rejects', username: 'ada', password: 'wrong' },
    });
    assert.is(rejected.status, 'failed');
    assert.is(rejected.error.errorCode, 'STEP_EXECUTION_FAILED');
    assert.is(rejected.error.details.failedStep, 'verify');
    assert.match(rejected.error.details.stepError, /password field/);
    assert.equal(rejected.result, {
      sessionId: rejected.sessionId,
      loggedIn: false,
      username: 'ada',
      failedStep: 'verify',
    });
    const noForm = await h.ok('run_task_template', {
      templateId: 'login_keep_session',
      inputs: { loginUrl: 'https://shop.test/no-form', username: 'ada', password: 'x' },
    });
    assert.is(noForm.status, 'failed');
    assert.is(noForm.error.details.failedStep, 'open_login_page');
    assert.is(noForm.error.details.stepErrorCode, 'ELEMENT_NOT_FOUND');
    assert.equal(
      noForm.steps.map((s: any) => s.status),
      ['failed', 'failed', 'failed', 'failed', 'failed'],
    );
    assert.match(noForm.steps[1].error.message, /not run: step open_login_page/);
    assert.is(h.browser.typed.length, 2, 'nothing typed on the page without a form');
  },
);

login(
  'by default a template may not type a password: the run fails with CONFIRMATION_REQUIRED and nothing is typed there',
  async (ctx) => {
    const h = (ctx.h = await startMcp({ pages: loginPages() }));
    const run = await h.ok('run_task_template', {
      templateId: 'login_keep_session',
      inputs: { loginUrl: 'https://shop.test/login', username: 'ada@example.com', password: 'hunter2-secret' },
    });
    assert.is(run.status, 'failed');
    assert.is(run.error.details.failedStep, 'fill_password');
    assert.match(run.error.details.stepError, /CONFIRMATION_REQUIRED.*password field/);
    assert.not.ok(
      h.browser.typed.some((t) => t.text === 'hunter2-secret'),
      'the password never reached the page',
    );
  },
);

compare.run();
login.run();
