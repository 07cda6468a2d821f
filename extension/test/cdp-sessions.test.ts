import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CdpError, createCdpSessions, SCREENCAST_KEEPALIVE } from '../background/cdp-sessions.ts';
import { fakeBrowser, manualTimers } from './fakes/fake-browser.ts';

const s = suite('CDP sessions');

s('attaches once, then enables focus emulation and the screencast keepalive, in that order', async () => {
  const browser = fakeBrowser();
  const cdp = createCdpSessions({ browser, timers: manualTimers(), enabled: () => true });
  await Promise.all([cdp.attach(3), cdp.attach(3), cdp.send(3, 'Page.getLayoutMetrics')]);
  assert.equal(
    browser.calls.filter(([name]) => name === 'debugger.attach'),
    [['debugger.attach', 3]],
  );
  assert.equal(
    browser.cdpCommands.map((c) => c.method),
    ['Emulation.setFocusEmulationEnabled', 'Page.startScreencast', 'Page.getLayoutMetrics'],
  );
  assert.equal(browser.cdpCommands[0]!.params, { enabled: true });
  assert.equal(browser.cdpCommands[1]!.params, SCREENCAST_KEEPALIVE);
  assert.ok(cdp.isAttached(3));
});

s('turned off in the options, or refused: CdpError unavailable, nothing attached', async () => {
  const browser = fakeBrowser();
  let enabled = false;
  const cdp = createCdpSessions({ browser, timers: manualTimers(), enabled: () => enabled });
  const off = await cdp.attach(3).catch((e: unknown) => e);
  assert.instance(off, CdpError);
  assert.is((off as CdpError).kind, 'unavailable');
  assert.is(browser.calls.length, 0);
  enabled = true;
  browser.attachError = new Error('Cannot access a chrome:// URL');
  const refused = (await cdp.attach(3).catch((e: unknown) => e)) as CdpError;
  assert.is(refused.kind, 'unavailable');
  assert.match(refused.message, 'chrome://');
  assert.not.ok(cdp.isAttached(3));
});

s('"already attached" by this extension in a previous worker life is reused', async () => {
  const browser = fakeBrowser();
  browser.attachError = new Error('Another debugger is already attached to the tab with id: 3.');
  const cdp = createCdpSessions({ browser, timers: manualTimers(), enabled: () => true });
  await cdp.attach(3);
  assert.ok(cdp.isAttached(3));
  assert.is(browser.cdpCommands[0]!.method, 'Runtime.evaluate');
});

s('a command that never answers times out; a detached session is forgotten', async () => {
  const browser = fakeBrowser();
  const timers = manualTimers();
  const cdp = createCdpSessions({ browser, timers, enabled: () => true, commandTimeoutMs: 1_000 });
  await cdp.attach(3);
  browser.onCommand = (_tab, method) => (method === 'Page.captureScreenshot' ? new Promise(() => {}) : {});
  const pending = cdp.send(3, 'Page.captureScreenshot').catch((e: unknown) => e);
  await Promise.resolve();
  await Promise.resolve();
  timers.advance(1_000);
  const error = (await pending) as CdpError;
  assert.instance(error, CdpError);
  assert.is(error.kind, 'timeout');
  browser.events.debuggerDetach.fire({ tabId: 3 }, 'target_closed');
  assert.not.ok(cdp.isAttached(3));
  browser.onCommand = (_tab, method) => {
    if (method === 'Input.dispatchMouseEvent') throw new Error('Debugger is not attached to the tab with id: 3.');
    return {};
  };
  await cdp.attach(3);
  const failed = (await cdp.send(3, 'Input.dispatchMouseEvent').catch((e: unknown) => e)) as CdpError;
  assert.is(failed.kind, 'command');
  assert.not.ok(cdp.isAttached(3), 'a "not attached" answer drops the session so the next call attaches again');
});

s('detach detaches only what is attached', async () => {
  const browser = fakeBrowser();
  const cdp = createCdpSessions({ browser, timers: manualTimers(), enabled: () => true });
  await cdp.detach(3);
  assert.equal(browser.calls, []);
  await cdp.attach(3);
  await cdp.detach(3);
  assert.equal(browser.calls.at(-1), ['debugger.detach', 3]);
});

s.run();
