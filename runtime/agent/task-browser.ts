// The browser side of one task: which extension serves it, its tab, and the browser actions of
// a turn. Every action is handed to `runAction`: for an agent task that is the task actor, which
// runs it as its child (one in flight, none during takeover); for an MCP session, the scheduler's
// queue. Page preparations likewise run through `preparePage` (a child of the task actor).
// Steps are reported to the web as `toolUsed`. Put together from three parts: the action
// pipeline (task-actions.ts), the task's tab (task-tab.ts, shared with MCP's page driver) and
// the agent's page read (page-read.ts).
import { createPageReader } from './page-read.ts';
import { createTaskActions } from './task-actions.ts';
import type { Step, TaskBrowserDeps } from './task-browser-types.ts';
import { createTaskTab, type TaskTab } from './task-tab.ts';

export type { ActionOutcome, Step, StepRecord, TaskBrowserDeps, UrlCheck } from './task-browser-types.ts';

export function createTaskBrowser(deps: TaskBrowserDeps) {
  // The tab and the pipeline need each other: the tab acts through the pipeline, the pipeline
  // reads the tab's URL (read guard), parks it and forgets it (tab closed, other plugin).
  let tab!: TaskTab;
  const actions = createTaskActions(deps, {
    reportedUrlOf: (tabId) => tab.reportedUrlOf(tabId),
    titleOf: (tabId) => tab.titleOf(tabId),
    park: (step) => tab.park(step),
    forget: () => tab.forget(),
  });
  tab = createTaskTab({
    taskId: deps.taskId,
    groupTitle: deps.groupTitle,
    snapshots: deps.snapshots,
    registry: deps.registry,
    events: deps.events,
    checkUrl: deps.checkUrl,
    ...(deps.checkFinalUrl ? { checkFinalUrl: deps.checkFinalUrl } : {}),
    act: (step, name, params) => actions.action(step, name, params),
    clientId: () => actions.clientId,
    blocked: actions.blockedError,
    refused: actions.refusedStep,
    traceId: () => actions.traceId,
  });
  const reader = createPageReader(deps, actions, tab);

  return {
    /** The task's tab: the one owner of which tab it is, its navigation, URL, title and closing. */
    tab,
    get clientId() {
      return actions.clientId;
    },
    get tabId() {
      return tab.tabId;
    },
    get groupId() {
      return tab.groupId;
    },
    /** The last page read, whole (the LLM sees a budgeted cut of it). */
    get fullPage() {
      return reader.fullPage;
    },
    selectPlugin: actions.selectPlugin,
    pagePrepLogic: reader.pagePrepLogic,
    beginTurn: actions.beginTurn,
    get traceId() {
      return actions.traceId;
    },
    action: actions.action,
    stepsInFlight: actions.stepsInFlight,
    lateResult: actions.lateResult,
    readPage: (step: Step) => reader.readPage(step),
    /** browser_open: navigate the task's tab under the URL policy, then read the page. */
    async open(step: Step, url: string) {
      const navigated = await tab.navigate(step, url);
      if (!navigated.ok) return navigated;
      return reader.readPage(step, navigated.settled);
    },
    rebind: tab.rebind,
  };
}

export type TaskBrowser = ReturnType<typeof createTaskBrowser>;
