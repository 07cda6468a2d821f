// A tidy browser: when a task stops acting, Mimo lets go of the person's browser.
//  - The debugger detaches from the task's tabs DEBUGGER_IDLE_MS after its last action settled, so
//    Chrome's "Mimo started debugging this browser" bar goes away while Mimo is not acting. The
//    next action attaches again (cdp-sessions.ts attaches on first use; the navigation guard's
//    Fetch interception and the interruption guard come back with it).
//  - The task's tab group is collapsed GROUP_COLLAPSE_MS after the last action (not closed: the
//    tab holds the result the person may want to read, and a follow-up message continues in it).
//    A group with the person's active tab is left open; a group Mimo collapsed is expanded again
//    when the task acts. Finished tasks never act again, so their groups stay collapsed.
// A task that ended (the server's plugin_ui_state `idle`: completed, error or stopped; since issue
// 23 also a finished turn, `ongoing`, which leaves the tab to the person) lets go of the debugger
// at once instead of after the idle delay; its group still collapses on time. A follow-up message
// attaches again on its first action and expands the group.
// A tab the live view is streaming keeps its debugger until the stream ends (checked again each
// idle period). Time comes from the injected timers.
import type { ActionName } from '../../transport/contracts/index.ts';
import type { ActionContext, ActionHandler, ActionHandlers } from './action-context.ts';
import type { BrowserApi, Timers } from '../shared/browser-api.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import type { TaskTabs } from './task-tabs.ts';
import { DEBUGGER_IDLE_SECONDS, GROUP_COLLAPSE_SECONDS } from '../shared/settings.ts';

export const DEBUGGER_IDLE_MS = DEBUGGER_IDLE_SECONDS * 1000;
export const GROUP_COLLAPSE_MS = GROUP_COLLAPSE_SECONDS * 1000;

export interface TaskIdleDeps {
  browser: Pick<BrowserApi, 'tabs' | 'tabGroups'>;
  cdp: Pick<CdpSessions, 'detach' | 'isAttached'>;
  taskTabs: Pick<TaskTabs, 'get'>;
  timers: Timers;
  /** A tab whose debugger must stay (the live view is streaming it). */
  inUse?(tabId: number): boolean;
  /** chrome.debugger.detach for a session this worker did not attach (a previous worker life's). */
  forceDetach?(tabId: number): Promise<void>;
  /** Read at each arming, so a change in the options applies to the next idle period. */
  idleMs?(): number;
  collapseMs?(): number;
  log?(message: string): void;
}

export interface TaskIdle {
  actionStarted(taskId: string): void;
  actionEnded(taskId: string): void;
  /** The task ended (plugin_ui_state idle): detach now unless an action is still running. */
  taskEnded(taskId: string): void;
  /**
   * A restarted worker: the task tabs it finds may still hold a previous life's debugger session
   * (Chrome keeps it). Each is treated as idle from now on, and detached even though this life
   * did not attach it.
   */
  sweep(taskIds: readonly string[]): void;
}

interface TaskTimers {
  running: number;
  detach: unknown;
  collapse: unknown;
  /** Detach every tab, also those this worker life does not know as attached. */
  sweep?: boolean;
}

export function createTaskIdle(deps: TaskIdleDeps): TaskIdle {
  const tasks = new Map<string, TaskTimers>();
  const collapsedByUs = new Set<number>();
  const idleMs = () => deps.idleMs?.() ?? DEBUGGER_IDLE_MS;
  const collapseMs = () => deps.collapseMs?.() ?? GROUP_COLLAPSE_MS;

  const clear = (timers: TaskTimers) => {
    if (timers.detach !== undefined) deps.timers.clearTimeout(timers.detach);
    if (timers.collapse !== undefined) deps.timers.clearTimeout(timers.collapse);
    timers.detach = timers.collapse = undefined;
  };

  async function detachIdle(taskId: string): Promise<void> {
    const timers = tasks.get(taskId);
    if (!timers || timers.running > 0) return;
    timers.detach = undefined;
    const record = await deps.taskTabs.get(taskId);
    if (!record) return;
    let kept = false;
    for (const tabId of record.tabs) {
      if (!deps.cdp.isAttached(tabId)) {
        if (timers.sweep) await deps.forceDetach?.(tabId).catch(() => {});
        continue;
      }
      if (deps.inUse?.(tabId)) {
        kept = true;
        continue;
      }
      await deps.cdp.detach(tabId);
    }
    // The live view still streams: look again after another idle period.
    if (kept && timers.running === 0 && timers.detach === undefined)
      timers.detach = deps.timers.setTimeout(() => void detachIdle(taskId), idleMs());
    forgetIfDone(taskId);
  }

  async function collapseIdle(taskId: string): Promise<void> {
    const timers = tasks.get(taskId);
    if (!timers || timers.running > 0) return;
    timers.collapse = undefined;
    const record = await deps.taskTabs.get(taskId);
    const groupId = record?.groupId;
    if (record && groupId !== undefined && groupId >= 0 && deps.browser.tabGroups) {
      const tabs = await Promise.all(record.tabs.map((tabId) => deps.browser.tabs.get(tabId).catch(() => null)));
      // The person is looking at one of them: leave the group open.
      if (!tabs.some((tab) => tab?.active === true)) {
        await deps.browser.tabGroups.update(groupId, { collapsed: true }).then(
          () => void collapsedByUs.add(groupId),
          (error) => deps.log?.(`group ${groupId} not collapsed: ${String(error)}`),
        );
      }
    }
    forgetIfDone(taskId);
  }

  function forgetIfDone(taskId: string): void {
    const timers = tasks.get(taskId);
    if (timers && timers.running === 0 && timers.detach === undefined && timers.collapse === undefined)
      tasks.delete(taskId);
  }

  async function expand(taskId: string): Promise<void> {
    const groupId = (await deps.taskTabs.get(taskId))?.groupId;
    if (groupId === undefined || !collapsedByUs.delete(groupId)) return;
    await deps.browser.tabGroups?.update(groupId, { collapsed: false }).catch(() => {});
  }

  return {
    actionStarted(taskId) {
      const timers = tasks.get(taskId) ?? { running: 0, detach: undefined, collapse: undefined };
      tasks.set(taskId, timers);
      timers.running++;
      timers.sweep = false;
      clear(timers);
      if (collapsedByUs.size > 0) void expand(taskId);
    },
    actionEnded(taskId) {
      const timers = tasks.get(taskId);
      if (!timers) return;
      timers.running = Math.max(0, timers.running - 1);
      if (timers.running > 0) return;
      clear(timers);
      timers.detach = deps.timers.setTimeout(() => void detachIdle(taskId), idleMs());
      timers.collapse = deps.timers.setTimeout(() => void collapseIdle(taskId), collapseMs());
    },
    taskEnded(taskId) {
      const timers = tasks.get(taskId);
      if (!timers || timers.running > 0) return;
      if (timers.detach !== undefined) deps.timers.clearTimeout(timers.detach);
      timers.detach = undefined;
      void detachIdle(taskId);
    },
    sweep(taskIds) {
      for (const taskId of taskIds) {
        if (tasks.has(taskId)) continue;
        const timers: TaskTimers = { running: 0, detach: undefined, collapse: undefined, sweep: true };
        tasks.set(taskId, timers);
        timers.detach = deps.timers.setTimeout(() => void detachIdle(taskId), idleMs());
      }
    },
  };
}

/** Every action of a task counts as activity (wraps the handler map like with-interruptions.ts). */
export function withTaskIdle(handlers: ActionHandlers, idle: TaskIdle): ActionHandlers {
  const wrap =
    <K extends ActionName>(handler: ActionHandler<K>): ActionHandler<K> =>
    async (params, ctx: ActionContext) => {
      idle.actionStarted(ctx.taskId);
      try {
        return await handler(params, ctx);
      } finally {
        idle.actionEnded(ctx.taskId);
      }
    };
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, wrap(handler as ActionHandler<ActionName>)]),
  ) as unknown as ActionHandlers;
}
