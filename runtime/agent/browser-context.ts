// Seed 002 on this system: every LLM step sees the snapshot's tabs with minimal fields, the
// task's tab and `activeTabId`. Above 30 tabs only the task's group (or the task tab) is
// listed, with a count of the others, to keep the context small. Tabs of finished tasks are
// left out (finished-tabs.ts).
import type { BrowserContext } from '../llm/llm-types.ts';

export const MAX_TABS_IN_CONTEXT = 30;

interface SnapshotTab {
  tabId: number;
  windowId: number;
  url?: string | undefined;
  title?: string | undefined;
  active: boolean;
  groupId?: number | undefined;
}

export function browserContextOf(
  snapshot: { tabs: SnapshotTab[]; activeTabId: number | null } | undefined,
  taskTabId: number | null,
  /** Tabs left out of the prompt (tabs of finished tasks); never the task's own tab. */
  hide?: (tab: { tabId: number; groupId?: number | undefined }) => boolean,
): BrowserContext {
  const all = (snapshot?.tabs ?? []).filter((t) => t.tabId === taskTabId || !hide?.(t));
  const minimal = (t: SnapshotTab) => ({
    tabId: t.tabId,
    windowId: t.windowId,
    ...(t.url !== undefined ? { url: t.url } : {}),
    ...(t.title !== undefined ? { title: t.title } : {}),
    active: t.active,
    ...(t.groupId !== undefined && t.groupId >= 0 ? { groupId: t.groupId } : {}),
  });
  let tabs = all;
  let omittedTabs: number | undefined;
  if (all.length > MAX_TABS_IN_CONTEXT) {
    const taskTab = all.find((t) => t.tabId === taskTabId);
    const groupId = taskTab?.groupId !== undefined && taskTab.groupId >= 0 ? taskTab.groupId : undefined;
    tabs = all.filter((t) => t.tabId === taskTabId || (groupId !== undefined && t.groupId === groupId));
    omittedTabs = all.length - tabs.length;
  }
  return {
    tabs: tabs.map(minimal),
    activeTabId: snapshot?.activeTabId ?? null,
    taskTabId,
    ...(omittedTabs !== undefined ? { omittedTabs } : {}),
  };
}

/** Tabs the task may switch to: its own tab and the tabs in its tab group (e.g. opened by target=_blank). */
export function switchableTabs(context: BrowserContext, taskGroupId: number | null): number[] {
  return context.tabs
    .filter((t) => t.tabId === context.taskTabId || (taskGroupId !== null && t.groupId === taskGroupId))
    .map((t) => t.tabId);
}
