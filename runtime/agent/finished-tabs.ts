// Tabs of finished tasks (completed or error) leave every prompt: the task's tab and its tab
// group are remembered when the task ends and filtered out of the browser state the LLM sees.
// (A stopped task's tab is also closed by task_stop { closeTab: true }, and its group with it.)

export interface FinishedTabs {
  finish(taskId: string, tab: { tabId: number | null; groupId: number | null }): void;
  /** The task runs again (a new message on a finished task): its tabs count again. */
  reopen(taskId: string): void;
  hides(tab: { tabId: number; groupId?: number | undefined }): boolean;
}

export function createFinishedTabs(): FinishedTabs {
  const byTask = new Map<string, { tabId: number | null; groupId: number | null }>();
  return {
    finish(taskId, tab) {
      if (tab.tabId === null && tab.groupId === null) return;
      byTask.set(taskId, { tabId: tab.tabId, groupId: tab.groupId !== null && tab.groupId >= 0 ? tab.groupId : null });
    },
    reopen(taskId) {
      byTask.delete(taskId);
    },
    hides(tab) {
      for (const finished of byTask.values()) {
        if (finished.tabId === tab.tabId) return true;
        if (finished.groupId !== null && tab.groupId === finished.groupId) return true;
      }
      return false;
    },
  };
}
