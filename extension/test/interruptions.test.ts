// The interruption guard of issue 16 against a fake browser with the real CDP sessions, task tabs,
// reports, popup guard and download guard: what it sends to a task tab when it guards it, how it
// answers dialogs, what a page's pop-up becomes, how downloads are filed, and how the agent hears
// of it all. The same paths run for real in e2e/background-focus.test.ts (headed Chromium).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { PageInterruptionSchema, type PageInterruption } from '../../transport/contracts/index.ts';
import { answerDialog, describeDialog } from '../background/dialog-policy.ts';
import { installDownloadGuard, MATCH_WAIT_MS, taskDownloadPath } from '../background/download-guard.ts';
import {
  AGENT_NAVIGATION_GRACE_MS,
  BINDING_PREFIX,
  createInterruptionGuard,
} from '../background/interruption-guard.ts';
import { createInterruptionReports, MAX_PENDING_PER_TASK } from '../background/interruption-reports.ts';
import { createPopupGuard, openableUrl } from '../background/popup-guard.ts';
import { withInterruptions } from '../background/with-interruptions.ts';
import type { ActionHandlers } from '../background/action-context.ts';
import type { DownloadItemInfo } from '../shared/browser-api.ts';
import { actionHandlers } from '../background/action-handlers.ts';
import { fakeEvent, type FakeEvent } from './fakes/fake-browser.ts';
import {
  browserAction,
  CLIENT_ID,
  contextFor,
  TASK_ID,
  testServices,
  type TestServices,
} from './fakes/fake-services.ts';

type Suggest = (suggestion?: { filename: string; conflictAction?: string }) => void;

interface Ctx {
  services: TestServices;
  sent: PageInterruption[];
  now: number;
  sleeps: Array<{ ms: number; resolve(): void }>;
  downloadEvent: FakeEvent<(item: DownloadItemInfo, suggest: Suggest) => boolean | void>;
  guard: ReturnType<typeof createInterruptionGuard>;
  reports: ReturnType<typeof createInterruptionReports>;
  taskTab: number;
}

function setup(ctx: Ctx): void {
  ctx.services = testServices();
  ctx.sent = [];
  ctx.now = 1_000_000;
  ctx.sleeps = [];
  const { browser } = ctx.services;
  ctx.downloadEvent = fakeEvent();
  browser.downloads = { onDeterminingFilename: ctx.downloadEvent as never };
  const sleep = (ms: number) => new Promise<void>((resolve) => ctx.sleeps.push({ ms, resolve }));
  ctx.reports = createInterruptionReports({
    clientId: () => CLIENT_ID,
    send: (m) => void ctx.sent.push(m),
    now: () => ctx.now,
    newId: () => 'x1',
    sleep,
  });
  const adopted: Array<[string, number, number]> = [];
  const popups = createPopupGuard({
    browser,
    taskTabs: ctx.services.taskTabs,
    reports: ctx.reports,
    adopted: async (taskId, tabId, openerTabId) => {
      adopted.push([taskId, tabId, openerTabId]);
      await ctx.services.taskTabs.adoptOpenedTab({ id: tabId, openerTabId });
    },
  });
  let guard!: ReturnType<typeof createInterruptionGuard>;
  const downloads = installDownloadGuard({
    browser,
    now: () => ctx.now,
    sleep,
    tasksGuarded: () => guard.anyGuarded(),
  });
  guard = createInterruptionGuard({
    browser,
    cdp: ctx.services.cdp,
    taskTabs: ctx.services.taskTabs,
    reports: ctx.reports,
    popups,
    downloads,
    newId: () => 'abc-1',
    now: () => ctx.now,
  });
  ctx.guard = guard;
  ctx.taskTab = 7;
  browser.addTab({ id: 7, windowId: 3, index: 4, active: false, url: 'http://127.0.0.1/task' });
  browser.addTab({ id: 1, windowId: 3, index: 0, active: true, url: 'http://127.0.0.1/person' });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const fire = (ctx: Ctx, tabId: number, method: string, params: Record<string, unknown>) =>
  (ctx.services.browser.debugger!.onEvent as FakeEvent<(s: { tabId?: number }, m: string, p?: unknown) => void>).fire(
    { tabId },
    method,
    params,
  );
const pagePost = (ctx: Ctx, tabId: number, message: Record<string, unknown>) =>
  fire(ctx, tabId, 'Runtime.bindingCalled', { name: `${BINDING_PREFIX}abc_1`, payload: JSON.stringify(message) });

const s = suite<Ctx>('interruption guard', {} as Ctx);
s.before.each(async (ctx) => {
  setup(ctx);
  await ctx.services.taskTabs.put({ taskId: TASK_ID, tabId: 7, windowId: 3, groupId: 50, tabs: [7], closedTabs: [] });
  await ctx.guard.guard(TASK_ID, 7);
});

s(
  'guarding a task tab: dialog and file-chooser handling on, the page half installed before page scripts and in the current document',
  async ({ services }) => {
    const methods = services.browser.cdpCommands.filter((c) => c.tabId === 7).map((c) => c.method);
    for (const method of [
      'Emulation.setFocusEmulationEnabled',
      'Page.enable',
      'Runtime.enable',
      'Page.setInterceptFileChooserDialog',
      'Runtime.addBinding',
      'Page.addScriptToEvaluateOnNewDocument',
      'Runtime.evaluate',
    ]) {
      assert.ok(methods.includes(method), `${method} sent: ${methods}`);
    }
    const binding = services.browser.cdpCommands.find((c) => c.method === 'Runtime.addBinding')!.params.name as string;
    assert.is(binding, `${BINDING_PREFIX}abc_1`);
    const script = services.browser.cdpCommands.find(
      (c) => c.method === 'Page.addScriptToEvaluateOnNewDocument',
    )!.params;
    assert.is(script.runImmediately, true);
    assert.ok(String(script.source).includes(JSON.stringify(binding)));
  },
);

s(
  'a confirm is dismissed, reported to the web UI (valid page_interruption) and to the agent in the next result',
  async (ctx) => {
    fire(ctx, 7, 'Page.javascriptDialogOpening', {
      type: 'confirm',
      message: 'Delete everything?',
      url: 'http://127.0.0.1/task',
      defaultPrompt: '',
    });
    await settle();
    await settle();
    const answer = ctx.services.browser.cdpCommands.find((c) => c.method === 'Page.handleJavaScriptDialog');
    assert.equal(answer?.params, { accept: false });
    assert.is(ctx.sent.length, 1);
    const report = ctx.sent[0]!;
    assert.ok(v.safeParse(PageInterruptionSchema, report).success, JSON.stringify(report));
    assert.equal(report.dialog, { dialogType: 'confirm', text: 'Delete everything?', accepted: false });
    assert.is(report.taskId, TASK_ID);
    assert.is(report.tabId, 7);
    const handlers = {
      browser_click: async () => ({ clicked: true, strategy: 'cdp_mouse' }),
    } as unknown as ActionHandlers;
    const wrapped = withInterruptions(handlers, ctx.guard, ctx.reports);
    const result = (await wrapped.browser_click({ tabId: 7, clickId: 1 } as never, {
      ...ctx.services,
      taskId: TASK_ID,
      actionId: 'a1',
      action: {} as never,
    })) as { warnings?: string[] };
    assert.equal(result.warnings, [
      'page interruption (tab 7: the page showed a confirm dialog "Delete everything?"; Mimo dismissed it (confirm dialogs are dismissed by default))',
    ]);
    const again = (await wrapped.browser_click({ tabId: 7, clickId: 1 } as never, {
      ...ctx.services,
      taskId: TASK_ID,
      actionId: 'a2',
      action: {} as never,
    })) as { warnings?: string[] };
    assert.is(again.warnings, undefined, 'told once');
  },
);

s('beforeunload: accepted during and just after an agent action, dismissed otherwise', async (ctx) => {
  const answers = () =>
    ctx.services.browser.cdpCommands
      .filter((c) => c.method === 'Page.handleJavaScriptDialog')
      .map((c) => c.params.accept);
  ctx.guard.actionStarted(TASK_ID);
  fire(ctx, 7, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '' });
  await settle();
  ctx.guard.actionEnded(TASK_ID);
  ctx.now += AGENT_NAVIGATION_GRACE_MS - 1;
  fire(ctx, 7, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '' });
  await settle();
  ctx.now += 2;
  fire(ctx, 7, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '' });
  await settle();
  await settle();
  assert.equal(answers(), [true, true, false]);
});

s(
  'a window.open from the page becomes an inactive tab beside its opener, adopted by the task; its stand-in navigates and closes it',
  async (ctx) => {
    const { browser } = ctx.services;
    pagePost(ctx, 7, { kind: 'open', openId: 'o1', url: 'http://127.0.0.1/landing', target: '', via: 'window.open' });
    pagePost(ctx, 7, { kind: 'navigate', openId: 'o1', url: 'http://127.0.0.1/next' });
    for (let i = 0; i < 6; i++) await settle();
    const created = browser.calls.find((c) => c[0] === 'tabs.create')!;
    assert.equal(created[1], { url: 'http://127.0.0.1/landing', active: false, openerTabId: 7, windowId: 3, index: 5 });
    const newTab = [...browser.tabsById.values()].find((t) => t.id !== 1 && t.id !== 7)!;
    assert.is(newTab.active, false);
    assert.ok((await ctx.services.taskTabs.get(TASK_ID))!.tabs.includes(newTab.id!), 'one of the task tabs');
    assert.ok(
      browser.calls.some(
        (c) => c[0] === 'tabs.update' && c[1] === newTab.id && (c[2] as any).url === 'http://127.0.0.1/next',
      ),
      'navigated after it was made',
    );
    assert.ok(!browser.calls.some((c) => c[0] === 'tabs.update' && (c[2] as any).active === true), 'nothing activated');
    const popup = ctx.sent.find((m) => m.kind === 'popup')!;
    assert.is(popup.newTabId, newTab.id);
    pagePost(ctx, 7, { kind: 'close', openId: 'o1' });
    for (let i = 0; i < 4; i++) await settle();
    assert.ok(
      browser.calls.some((c) => c[0] === 'tabs.remove'),
      'closed through the stand-in',
    );
  },
);

s(
  'refused and ignored: non-http pop-ups, focus/print/fullscreen/permissions reported; messages from other bindings or unguarded tabs ignored',
  async (ctx) => {
    pagePost(ctx, 7, { kind: 'open', openId: 'o2', url: 'javascript:alert(1)', target: '', via: 'window.open' });
    pagePost(ctx, 7, { kind: 'permission', permission: 'geolocation' });
    pagePost(ctx, 7, { kind: 'print' });
    fire(ctx, 7, 'Runtime.bindingCalled', { name: 'somethingElse', payload: JSON.stringify({ kind: 'print' }) });
    pagePost(ctx, 1, { kind: 'focus' });
    fire(ctx, 7, 'Page.fileChooserOpened', { mode: 'selectSingle' });
    for (let i = 0; i < 6; i++) await settle();
    assert.not.ok(
      ctx.services.browser.calls.some((c) => c[0] === 'tabs.create'),
      'javascript: is not opened',
    );
    assert.equal(ctx.sent.map((m) => m.kind).sort(), ['file_chooser', 'permission', 'popup_blocked', 'print']);
    for (const m of ctx.sent) assert.ok(v.safeParse(PageInterruptionSchema, m).success, JSON.stringify(m));
    assert.equal(
      [
        openableUrl('https://a.b/'),
        openableUrl('about:blank'),
        openableUrl('file:///etc/passwd'),
        openableUrl('data:text/html,x'),
      ],
      [true, true, false, false],
    );
  },
);

s(
  "a download from the task tab is filed into Downloads/Mimo/<taskId>/; the person's own download is left alone",
  async (ctx) => {
    fire(ctx, 7, 'Page.downloadWillBegin', {
      url: 'http://127.0.0.1/report.csv',
      suggestedFilename: 'report.csv',
      guid: 'g1',
    });
    await settle();
    const suggestions: unknown[] = [];
    ctx.downloadEvent.fire(
      { id: 1, url: 'http://127.0.0.1/report.csv', filename: 'report.csv' },
      (s) => void suggestions.push(s),
    );
    for (let i = 0; i < 4; i++) await settle();
    assert.equal(suggestions, [{ filename: `Mimo/${TASK_ID}/report.csv`, conflictAction: 'uniquify' }]);
    assert.match(ctx.sent.find((m) => m.kind === 'download')!.message, `saved as Downloads/Mimo/${TASK_ID}/report.csv`);
    ctx.downloadEvent.fire(
      { id: 2, url: 'http://example.com/mine.pdf', filename: 'mine.pdf' },
      (s) => void suggestions.push(s),
    );
    await settle();
    const wait = ctx.sleeps.find((sl) => sl.ms === MATCH_WAIT_MS)!;
    wait.resolve();
    for (let i = 0; i < 4; i++) await settle();
    assert.equal(suggestions[1], undefined, 'unchanged');
    assert.is(suggestions.length, 2);
    assert.is(taskDownloadPath('t/../x', '../../evil.sh'), 'Mimo/t____x/evil.sh');
  },
);

s('reports are capped per task and say how many were left out', async (ctx) => {
  for (let i = 0; i < MAX_PENDING_PER_TASK + 3; i++)
    ctx.reports.report(TASK_ID, { tabId: 7, kind: 'focus', message: `focus ${i}` });
  const lines = await ctx.reports.drain(TASK_ID);
  assert.is(lines.length, MAX_PENDING_PER_TASK + 1);
  assert.is(lines[0], '3 earlier page interruptions not listed');
  assert.equal(await ctx.reports.drain(TASK_ID), []);
});

s.run();

const policy = suite('dialog policy');
policy('dismiss by default, accept beforeunload only while the agent acts; one line says what and how', () => {
  assert.equal(answerDialog({ type: 'alert', message: 'x' }, { agentActing: true }).accept, false);
  assert.equal(answerDialog({ type: 'confirm', message: 'x' }, { agentActing: true }).accept, false);
  assert.equal(answerDialog({ type: 'prompt', message: 'x' }, { agentActing: false }).accept, false);
  assert.equal(answerDialog({ type: 'beforeunload', message: '' }, { agentActing: true }).accept, true);
  assert.equal(answerDialog({ type: 'beforeunload', message: '' }, { agentActing: false }).accept, false);
  const line = describeDialog(
    { type: 'alert', message: 'a'.repeat(400) },
    { accept: false, reason: 'alerts are closed' },
  );
  assert.ok(line.startsWith('the page showed a alert dialog "aaa'));
  assert.ok(line.includes('…"; Mimo closed it'));
});
policy.run();

const windows = suite('the task keeps its window');
windows(
  "a new task tab opens in the window of the task's first tab, not the last focused one; a closed window falls back",
  async () => {
    const services = testServices();
    await services.taskTabs.put({ taskId: TASK_ID, tabId: 40, windowId: 4, tabs: [40], closedTabs: [] });
    const start = (url: string) =>
      actionHandlers.task_start({ url }, contextFor(services, browserAction('task_start', { url })));
    await start('https://a.example/');
    assert.equal(
      services.browser.calls.find(([name]) => name === 'tabs.create'),
      ['tabs.create', { url: 'https://a.example/', active: false, windowId: 4 }],
    );
    services.browser.windows.get = async (id: number) => {
      throw new Error(`No window with id: ${id}.`);
    };
    await start('https://b.example/');
    assert.equal(services.browser.calls.filter(([name]) => name === 'tabs.create').at(-1), [
      'tabs.create',
      { url: 'https://b.example/', active: false },
    ]);
  },
);
windows.run();
