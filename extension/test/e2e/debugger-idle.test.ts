// In Chromium with the built extension: Chrome's "Mimo started debugging this browser" bar is
// there while the extension holds a tab's debugger. After a task's last action the extension lets
// go of it (the options page's "Let go of the debugger after", 15 s by default; 5 s here, set
// through the options page); the next action takes it again and works. Its tab group collapses
// after "Collapse the task's tab group after" (60 s by default; 12 s here) and opens again when the
// task acts; a task the server says ended (plugin_ui_state idle) lets go at once. The timers
// themselves are pinned on manual timers in task-idle.test.ts.
// The extension's own session is probed from its service worker: a CDP command on the tab
// succeeds only while the extension is attached (Playwright's own CDP connection does not count).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pluginUiStateFrame } from '../../../transport/contracts/plugin-frames.ts';
import { armWatchdog, inWorker, startE2eEnv, startTask, waitUntil, type E2eEnv } from './e2e-util.ts';

const disarm = armWatchdog(240_000, 'debugger-idle.test');

/** Set through the options page, as a person would; shorter than the defaults so the run is quick. */
const IDLE = { debugger: 5, groupCollapse: 12 };
const DEBUGGER_IDLE_MS = IDLE.debugger * 1000;
const GROUP_COLLAPSE_MS = IDLE.groupCollapse * 1000;

/** Whether the extension itself holds the tab's debugger session. */
const extensionAttached = (env: E2eEnv, tabId: number) =>
  inWorker(
    env,
    (id: number) =>
      (globalThis as any).chrome.debugger.sendCommand({ tabId: id }, 'Runtime.evaluate', { expression: '1' }).then(
        () => true,
        () => false,
      ),
    tabId,
  );

// Both modes: under Playwright's page instrumentation, and in a Chromium no CDP client instruments
// (shared/notes/chromium-extension-testing.md), where a screenshot after the re-attach would hang
// if the attach did not restore focus emulation and the screencast keepalive.
for (const mode of ['playwright', 'realistic'] as const) {
  const s = suite<{ env: E2eEnv }>(`the debugger detaches when the task is idle (${mode})`, {
    env: undefined as never,
  });
  s.before(async (ctx) => {
    ctx.env = await startE2eEnv(mode, { idle: IDLE });
  });
  s.after(async (ctx) => {
    await ctx.env?.close();
  });

  s(
    'attached while acting, detached about the idle time after the last action, attached again by the next one',
    async ({ env }) => {
      const tabId = await startTask(env, env.driver, '/article.html');
      const shot = await env.driver.send('browser_screenshot', { tabId });
      assert.is(shot.result.status, 'success', JSON.stringify(shot.result));
      const lastActionAt = Date.now();
      assert.is(await extensionAttached(env, tabId), true, 'the extension holds the debugger right after acting');
      await new Promise((resolve) => setTimeout(resolve, DEBUGGER_IDLE_MS - 2_000));
      assert.is(await extensionAttached(env, tabId), true, 'not before the idle delay');
      await waitUntil(async () => !(await extensionAttached(env, tabId)), 15_000);
      const detachedAfterMs = Date.now() - lastActionAt;
      console.log(
        `  ${mode}: the debugger detached ${detachedAfterMs} ms after the last action (DEBUGGER_IDLE_MS ${DEBUGGER_IDLE_MS})`,
      );
      assert.ok(
        detachedAfterMs >= DEBUGGER_IDLE_MS - 2_000 && detachedAfterMs < DEBUGGER_IDLE_MS + 10_000,
        String(detachedAfterMs),
      );
      // The next action attaches again and works: a CDP screenshot of a background tab.
      const startedAt = Date.now();
      const again = await env.driver.send('browser_screenshot', { tabId });
      assert.is(again.result.status, 'success', JSON.stringify(again.result));
      console.log(`  ${mode}: the screenshot that re-attached took ${Date.now() - startedAt} ms`);
      assert.is(await extensionAttached(env, tabId), true);
    },
  );

  if (mode === 'playwright') {
    s('a task the server says ended (plugin_ui_state idle) lets go of the debugger at once', async ({ env }) => {
      const driver = env.newDriver();
      const tabId = await startTask(env, driver, '/article.html');
      assert.is(await extensionAttached(env, tabId), true);
      const sentAt = Date.now();
      await driver.sendRaw(
        pluginUiStateFrame({ taskId: driver.taskId, clientId: driver.clientId, timestamp: Date.now(), state: 'idle' }),
      );
      await waitUntil(async () => !(await extensionAttached(env, tabId)), 5_000);
      console.log(`  detached ${Date.now() - sentAt} ms after plugin_ui_state idle`);
    });

    s(
      "the task's tab group collapses about the collapse time after the last action and opens again when it acts",
      async ({ env }) => {
        // A task of its own: the first test's task collapses its group while this one runs.
        const driver = env.newDriver();
        const tabId = await startTask(env, driver, '/article.html');
        const lastActionAt = Date.now();
        const group = () =>
          inWorker(
            env,
            (id: number) =>
              (globalThis as any).chrome.tabs
                .get(id)
                .then((t: any) =>
                  t.groupId >= 0
                    ? (globalThis as any).chrome.tabGroups
                        .get(t.groupId)
                        .then((g: any) => ({ id: g.id, collapsed: g.collapsed }))
                    : null,
                ),
            tabId,
          );
        const before = await group();
        assert.ok(before && before.collapsed === false, JSON.stringify(before));
        await waitUntil(async () => (await group())?.collapsed === true, GROUP_COLLAPSE_MS + 15_000);
        const collapsedAfterMs = Date.now() - lastActionAt;
        console.log(
          `  the group collapsed ${collapsedAfterMs} ms after the last action (GROUP_COLLAPSE_MS ${GROUP_COLLAPSE_MS})`,
        );
        assert.ok(collapsedAfterMs >= GROUP_COLLAPSE_MS - 3_000, String(collapsedAfterMs));
        const read = await driver.send('browser_screenshot', { tabId });
        assert.is(read.result.status, 'success', JSON.stringify(read.result));
        await waitUntil(async () => (await group())?.collapsed === false, 5_000);
      },
    );
  }

  s.run();
}

// uvu runs the suites one after the other; the watchdog is disarmed once the process is done.
process.on('beforeExit', () => disarm());
