// BackgroundServices for handler and runner tests: the real task tabs, refs, CDP sessions,
// page-agent client and overlay relay over a fake browser, with a recording artifact uploader.
import { nanoid } from 'nanoid';
import type { ActionContext, BackgroundServices } from '../../background/action-context.ts';
import type { ArtifactUploader, UploadInput } from '../../background/artifact-upload.ts';
import { createNavTracker } from '../../background/nav-tracker.ts';
import { createCdpSessions } from '../../background/cdp-sessions.ts';
import { createElementRefs } from '../../background/element-refs.ts';
import { createOverlayRelay } from '../../background/overlay-relay.ts';
import { createPageAgentClient } from '../../background/page-agent-client.ts';
import { createTaskTabs } from '../../background/task-tabs.ts';
import { matchesAnyPattern } from '../../shared/match-pattern.ts';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import { packActionCall, PROTOCOL_VERSION } from '../../../transport/contracts/index.ts';
import type { ActionName, ActionParamsMap, BrowserAction } from '../../../transport/contracts/index.ts';
import { fakeBrowser, manualTimers, type FakeBrowser, type ManualTimers } from './fake-browser.ts';

export const TASK_ID = '01HR0000000000000000000000';
export const CLIENT_ID = 'plugin-test';
export const WEB_UI = 'http://localhost:3000/*';

export interface RecordingUploader extends ArtifactUploader {
  uploads: UploadInput[];
  failWith: Error | null;
}

export function recordingUploader(): RecordingUploader {
  const uploader: RecordingUploader = {
    uploads: [],
    failWith: null,
    async reserve(input) {
      return {
        artifactId: `art-${nanoid(6)}`,
        uploadUrl: input.uploadUrl ?? 'http://server/api/artifacts/x/upload?token=t',
        downloadUrl: 'http://server/api/artifacts/x',
      };
    },
    async upload(input, target) {
      if (uploader.failWith) throw uploader.failWith;
      uploader.uploads.push(input);
      const t = await (target ?? uploader.reserve(input));
      return { artifactId: t.artifactId, url: `http://server/api/artifacts/${t.artifactId}` };
    },
  };
  return uploader;
}

export interface TestServices extends BackgroundServices {
  browser: FakeBrowser;
  timers: ManualTimers;
  artifacts: RecordingUploader;
  settingsValue: Settings;
  emitted: unknown[];
}

export function testServices(browser: FakeBrowser = fakeBrowser()): TestServices {
  const timers = manualTimers();
  const emitted: unknown[] = [];
  const taskTabs = createTaskTabs(browser.storage.local);
  const services: TestServices = {
    browser,
    settingsValue: { ...defaultSettings },
    settings: () => services.settingsValue,
    taskTabs,
    cdp: createCdpSessions({ browser, timers, enabled: () => services.settingsValue.useCdp }),
    // Not hooked to attach: unit tests exercise the chrome.tabs fallback; nav-state has its own tests.
    nav: createNavTracker({ browser, timers }),
    page: createPageAgentClient(browser),
    refs: createElementRefs(browser.storage.session),
    artifacts: recordingUploader(),
    overlay: createOverlayRelay({
      browser,
      taskTabs,
      timers,
      now: () => 1_000,
      clientId: () => CLIENT_ID,
      emit: (m) => (emitted.push(m), true),
    }),
    isWebUiUrl: (url) => matchesAnyPattern(url, [WEB_UI]),
    timers,
    now: () => 1_000,
    emitted,
  };
  return services;
}

export function browserAction<K extends ActionName>(
  name: K,
  params: ActionParamsMap[K],
  id = `act-${nanoid(6)}`,
  extra: Partial<BrowserAction> = {},
): BrowserAction {
  return {
    v: PROTOCOL_VERSION,
    type: 'browser_action',
    id,
    taskId: TASK_ID,
    clientId: CLIENT_ID,
    timestamp: 1,
    action: packActionCall(name, params),
    ...extra,
  };
}

export function contextFor(services: TestServices, action: BrowserAction): ActionContext {
  return { ...services, action, taskId: action.taskId, actionId: action.id };
}

/** The page agent answers `op` with `answer(args)`; every other script call returns undefined. */
export function answerPageOps(browser: FakeBrowser, answer: (op: string, args: any) => unknown): void {
  browser.onScript = ({ args, files }) => {
    if (files) return undefined;
    const [op, opArgs] = args as [string, unknown];
    return { value: answer(op, opArgs) };
  };
}

/** Gives TASK_ID a task tab `tabId` showing `url`. */
export async function withTaskTab(
  services: TestServices,
  tabId = 7,
  url = 'https://shop.example/products',
): Promise<number> {
  services.browser.addTab({ id: tabId, url, status: 'complete' });
  await services.taskTabs.put({ taskId: TASK_ID, tabId, windowId: 1, tabs: [tabId], closedTabs: [] });
  return tabId;
}
