// Issue 21 item 3: a navigation the URL policy refuses leaves a readable tab and an honest
// result. Through browser-shell over MCP (real runtime, real URL policy, the built extension in
// a plain Chromium): the policy allows 127.0.0.1 only; a page there links and posts to 127.0.0.2
// (its own server with an access log). The action that caused the navigation fails with
// URL_BLOCKED and the policy's reason; the tab ends on about:blank (not Chrome's blocked page,
// not a page of the extension's origin); every later read works (snapshot -i, snapshot with the
// page text, screenshot); `open` of a 302 to the refused host fails with URL_BLOCKED; `open
// about:blank` can be read; the refused host never receives a request.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { armWatchdog } from './e2e-util.ts';
import { refWhere, startMcpEnv, until, type McpEnv } from './mcp-env.ts';

const disarm = armWatchdog(300_000, 'blocked-navigation.test');
const SECRET = 'REFUSED-HOST-SECRET-51c2';

interface Ctx {
  env: McpEnv;
  blocked: Server;
  blockedUrl: string;
  blockedLog: string[];
}

const s = suite<Ctx>('blocked navigation: URL_BLOCKED for the action, a readable about:blank after');

s.before(async (ctx) => {
  try {
    ctx.blockedLog = [];
    ctx.blocked = createHttpServer((req, res) => {
      ctx.blockedLog.push(`${req.method} ${req.url}`);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>${SECRET}</title><h1>${SECRET}</h1>`);
    });
    await new Promise<void>((resolve) => ctx.blocked.listen(0, '127.0.0.2', () => resolve()));
    ctx.blockedUrl = `http://127.0.0.2:${(ctx.blocked.address() as AddressInfo).port}/`;
    ctx.env = await startMcpEnv({
      policy: { open: { allow_hosts: ['127.0.0.1'], allow_private_networks: ['loopback'] } },
    });
  } catch (error) {
    console.error('setup failed:', error); // uvu drops errors thrown by hooks
    throw error;
  }
});
s.after(async (ctx) => {
  await ctx.env?.close();
  await new Promise((resolve) => ctx.blocked?.close(resolve));
  disarm();
});

const leavePage = (ctx: Ctx) => `${ctx.env.corpus.url}/local/leave-site.html?to=${encodeURIComponent(ctx.blockedUrl)}`;

/** The URL the browser itself shows in the session's tab (not what the runtime believes). */
async function browserUrlOf(ctx: Ctx, session: string): Promise<string> {
  const tabId = ctx.env.routes.mcp.sessions.get(session)?.main?.tabId;
  const sw = ctx.env.browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'))!;
  return sw.evaluate(
    (id: number) => (globalThis as any).chrome.tabs.get(id).then((t: any) => t.url ?? ''),
    tabId as number,
  );
}

/** Every read works on the blank tab and shows nothing of the refused host. */
async function assertReadableBlank(ctx: Ctx, session: string): Promise<void> {
  await until(async () => (await browserUrlOf(ctx, session)) === 'about:blank', 'the tab to be on about:blank', 10_000);
  const interactive = await ctx.env.shell(session, ['snapshot', '-i']);
  assert.is(interactive.exit_code, 0, interactive.stderr);
  assert.equal(interactive.data.refs ?? {}, {}, 'about:blank has no controls');
  const full = await ctx.env.shell(session, ['snapshot']);
  assert.is(full.exit_code, 0, full.stderr);
  assert.not.match(full.stdout, SECRET);
  assert.not.match(full.stdout, 'page text unavailable');
  const shot = await ctx.env.shell(session, ['screenshot']);
  assert.is(shot.exit_code, 0, shot.stderr);
  assert.is(await browserUrlOf(ctx, session), 'about:blank');
}

function assertBlocked(reply: { exit_code: number; stdout: string; stderr: string }, path: string): void {
  assert.is(reply.exit_code, 1, `expected a failure, got exit 0: ${reply.stdout}`);
  assert.match(reply.stderr, /^URL_BLOCKED: /);
  assert.match(reply.stderr, path);
  assert.match(reply.stderr, /not on the allow list|allow/i, 'the policy says why');
}

s(
  'a click on a link to a refused host fails with URL_BLOCKED; snapshot -i, snapshot and screenshot work after',
  async (ctx) => {
    await ctx.env.ok('link', ['open', leavePage(ctx)]);
    const snap = await ctx.env.ok('link', ['snapshot', '-i']);
    const link = refWhere(
      snap,
      (e) => typeof e.href === 'string' && e.href.includes('secret-link'),
      'the off-site link',
    );
    const clicked = await ctx.env.shell('link', ['click', link]);
    assertBlocked(clicked, 'secret-link');
    await assertReadableBlank(ctx, 'link');
    // The session goes on: an allowed page opens and reads normally.
    await ctx.env.ok('link', ['open', leavePage(ctx)]);
    const again = await ctx.env.ok('link', ['snapshot', '-i']);
    refWhere(
      again,
      (e) => typeof e.href === 'string' && e.href.includes('secret-link'),
      'the off-site link after reopening',
    );
  },
);

s('an off-site form submit fails with URL_BLOCKED and leaves a readable tab', async (ctx) => {
  await ctx.env.ok('form', ['open', leavePage(ctx)]);
  const snap = await ctx.env.ok('form', ['snapshot', '-i']);
  const send = refWhere(snap, (e) => e.name === 'Send off-site', 'the submit button');
  const clicked = await ctx.env.shell('form', ['click', send]);
  assertBlocked(clicked, 'secret-form');
  await assertReadableBlank(ctx, 'form');
});

s('open of a URL that redirects (302) to a refused host fails with URL_BLOCKED; the tab is readable', async (ctx) => {
  const target = `${ctx.env.corpus.url}/redirect?to=${encodeURIComponent(`${ctx.blockedUrl}secret-redirect`)}`;
  const opened = await ctx.env.shell('redirect', ['open', target]);
  assertBlocked(opened, 'secret-redirect');
  await assertReadableBlank(ctx, 'redirect');
});

s('open about:blank after a page: snapshot and snapshot -i work', async (ctx) => {
  await ctx.env.ok('blank', ['open', leavePage(ctx)]);
  const opened = await ctx.env.ok('blank', ['open', 'about:blank']);
  assert.is(opened.url, 'about:blank');
  await assertReadableBlank(ctx, 'blank');
});

s('control: a link that stays on the allowed host still navigates (the guard is no blanket block)', async (ctx) => {
  await ctx.env.ok('stay', ['open', leavePage(ctx)]);
  const snap = await ctx.env.ok('stay', ['snapshot', '-i']);
  const stay = refWhere(snap, (e) => e.name === 'A link that stays', 'the same-site link');
  const clicked = await ctx.env.ok('stay', ['click', stay]);
  assert.is(clicked.navigated, true);
  assert.match(clicked.url, 'stayed=1');
  const after = await ctx.env.ok('stay', ['snapshot', '-i']);
  refWhere(after, (e) => e.name === 'A link that stays', 'the same-site link on the new page');
});

s('the refused host never received a request', (ctx) => {
  assert.equal(ctx.blockedLog, []);
});

s.run();
