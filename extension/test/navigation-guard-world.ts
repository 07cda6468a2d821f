// The navigation guard's world on fakes, shared by navigation-guard.test.ts (CDP interception)
// and navigation-guard-fallback.test.ts (the new-tab gate and the backstop without CDP): a fake
// browser with a task tab (7, in group 50) and a user tab (9), CDP sessions, the gate and the
// guard, the questions it asked and the answer it gets.
import { createCdpSessions } from '../background/cdp-sessions.ts';
import {
  createNavigationGuard,
  type NavigationGuard,
  type NavigationQuestion,
} from '../background/navigation-guard.ts';
import { createNewTabGate } from '../background/new-tab-gate.ts';
import { createTaskTabs } from '../background/task-tabs.ts';
import { fakeBrowser, manualTimers, type FakeBrowser, type FakeEvent } from './fakes/fake-browser.ts';

export const flush = async () => {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

export interface World {
  browser: FakeBrowser;
  guard: NavigationGuard;
  asked: NavigationQuestion[];
  answer: (q: NavigationQuestion) => Promise<unknown>;
  cdpEnabled: boolean;
  rules: Array<{ removeRuleIds?: number[]; addRules?: any[] }>;
  pause(tabId: number, params: Record<string, unknown>): void;
  commands(tabId: number, method: string): Array<Record<string, unknown>>;
}

export async function world(): Promise<World> {
  const browser = fakeBrowser();
  const taskTabs = createTaskTabs(browser.storage.local);
  const w = {
    browser,
    asked: [] as NavigationQuestion[],
    answer: async (_q: NavigationQuestion): Promise<unknown> => ({ ok: true, data: { allowed: true } }),
    cdpEnabled: true,
    rules: [],
  } as unknown as World;
  const gate = createNewTabGate({
    browser,
    rules: { updateSessionRules: async (update) => void w.rules.push(update) },
  });
  let guard!: NavigationGuard;
  const cdp = createCdpSessions({
    browser,
    timers: manualTimers(),
    enabled: () => w.cdpEnabled,
    onAttached: (tabId) => guard.attached(tabId),
  });
  guard = createNavigationGuard({ browser, cdp, taskTabs, gate, ask: (q) => (w.asked.push(q), w.answer(q)) });
  browser.onCommand = (_tabId, method) =>
    method === 'Page.getFrameTree' ? { frameTree: { frame: { id: 'MAIN' } } } : {};
  browser.addTab({ id: 7, url: 'https://allowed.example/', groupId: 50 });
  browser.addTab({ id: 9, url: 'https://user.example/' });
  await taskTabs.put({ taskId: 'task-1', tabId: 7, windowId: 1, groupId: 50, tabs: [7], closedTabs: [] });
  await gate.start();
  w.guard = guard;
  w.pause = (tabId, params) =>
    void (browser.debugger!.onEvent as FakeEvent<any>).fire({ tabId }, 'Fetch.requestPaused', {
      frameId: 'MAIN',
      resourceType: 'Document',
      ...params,
    });
  w.commands = (tabId, method) =>
    browser.cdpCommands.filter((c) => c.tabId === tabId && c.method === method).map((c) => c.params);
  return w;
}
