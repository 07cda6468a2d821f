// Shared setup of the browser-shell tests: fixtures/site's form (its submit navigates to the
// result page with the typed values), a test clock for browser-shell's timers, and the MCP harness.
import { serveFixtureSite, type FixtureSite } from '../../../fixtures/site/serve.ts';
import type { FakePage } from './fake-browser.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';
import { startMcp, testPolicy, type McpHarness } from './mcp-harness.ts';
import { loadSitePages } from './site-pages.ts';

export interface Ctx {
  site: FixtureSite;
  pages: Record<string, FakePage>;
  /** browser-shell's timers (timeout_sec, wait), moved by hand with `increment(ms)`. */
  timers: TestClock;
  h: McpHarness;
}

/** `consequentialSteps`: the shell tests drive a contact form whose "Send" is a consequential step (issue 23): they opt in unless they test the default. */
export async function setup(
  ctx: Ctx,
  extraPages: Record<string, FakePage> = {},
  policy = testPolicy(),
  consequentialSteps: 'allow' | 'refuse' = 'allow',
): Promise<void> {
  ctx.site = await serveFixtureSite();
  ctx.pages = await loadSitePages(ctx.site, ['/form.html', '/form-result.html', '/index.html']);
  const form = ctx.pages[`${ctx.site.url}/form.html`]!;
  const result = `${ctx.site.url}/form-result.html?name={name}&email={email}&message={message}`;
  for (const e of form.elements!) {
    if (e.tag === 'button') e.navigatesTo = result;
    if (e.name === 'email') e.submitsTo = result;
  }
  ctx.timers = createTestClock();
  ctx.h = await startMcp({
    pages: { ...ctx.pages, ...extraPages },
    policy,
    routes: { shellTimers: ctx.timers, consequentialSteps },
  });
}

export async function teardown(ctx: Ctx): Promise<void> {
  await ctx.h.close();
  await ctx.site.close();
}
