// What an action handler gets: the action being run and the background's services. A handler
// returns its result (success, possibly with `warnings`) or throws ActionFailure.
import type { ActionName, ActionParamsMap, ActionResultMap, BrowserAction } from '../../transport/contracts/index.ts';
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import type { Settings } from '../shared/settings.ts';
import type { ArtifactUploader } from './artifact-upload.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import type { ElementRefs } from './element-refs.ts';
import type { NavTracker } from './nav-tracker.ts';
import type { NavigationGuard } from './navigation-guard.ts';
import type { OverlayRelay } from './overlay-relay.ts';
import type { PageAgentClient } from './page-agent-client.ts';
import type { TaskTabs } from './task-tabs.ts';

export interface BackgroundServices {
  browser: BrowserApi;
  settings(): Settings;
  taskTabs: TaskTabs;
  cdp: CdpSessions;
  /** Main-frame navigation of CDP-attached tabs (untracked tabs fall back to chrome.tabs). */
  nav: NavTracker;
  page: PageAgentClient;
  refs: ElementRefs;
  artifacts: ArtifactUploader;
  overlay: OverlayRelay;
  isWebUiUrl(url: string | undefined): boolean;
  /** Intercepts task tabs' navigations under the server's URL policy (absent in unit-test fakes). */
  navigationGuard?: NavigationGuard;
  timers: Timers;
  now(): number;
}

export interface ActionContext extends BackgroundServices {
  action: BrowserAction;
  taskId: string;
  actionId: string;
}

export type ActionHandler<K extends ActionName> = (
  params: ActionParamsMap[K],
  ctx: ActionContext,
) => Promise<ActionResultMap[K]>;

export type ActionHandlers = { [K in ActionName]: ActionHandler<K> };
