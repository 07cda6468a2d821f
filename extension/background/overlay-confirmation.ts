// The page overlay's "Needs you: confirm", background side: the server's
// confirmation_state goes to the task tab's content script; the person's answer there goes back
// to the server as confirmation_answer, only from the task's own tab.
import {
  ConfirmationStateSchema,
  PROTOCOL_VERSION,
  validate,
  type ConfirmationDecision,
} from '../../transport/contracts/index.ts';
import type { BrowserApi } from '../shared/browser-api.ts';
import type { BackgroundToContentMessage } from '../shared/internal-messages.ts';
import type { TaskTabs } from './task-tabs.ts';

export interface OverlayConfirmationDeps {
  browser: BrowserApi;
  taskTabs: Pick<TaskTabs, 'get' | 'taskOfTab'>;
  clientId(): string | null;
  emit(message: unknown): unknown;
  now(): number;
}

export function createOverlayConfirmation(deps: OverlayConfirmationDeps) {
  return {
    /** Server -> the task tab's overlay. */
    async fromServer(message: unknown): Promise<{ ok: boolean; error?: { code: string; message: string } }> {
      const checked = validate(ConfirmationStateSchema, message, 'SCHEMA_VALIDATION_FAILED');
      if (!checked.ok) return { ok: false, error: { code: checked.error.code, message: checked.error.message } };
      const record = await deps.taskTabs.get(checked.value.taskId);
      if (!record)
        return {
          ok: false,
          error: { code: 'INVALID_TASK_TAB', message: `no tab of task ${checked.value.taskId} here` },
        };
      const out: BackgroundToContentMessage = {
        kind: 'confirmation',
        taskId: checked.value.taskId,
        waiting: checked.value.waiting,
      };
      await deps.browser.tabs.sendMessage(record.tabId, out).catch(() => {});
      return { ok: true };
    },
    /** The overlay's answer, from the task's own tab only. */
    async fromTab(
      message: { taskId: string; requestId: string; decision: ConfirmationDecision },
      tabId: number,
    ): Promise<{ ok: boolean }> {
      const record = await deps.taskTabs.taskOfTab(tabId);
      const clientId = deps.clientId();
      if (record?.taskId !== message.taskId || !clientId) return { ok: false };
      deps.emit({
        v: PROTOCOL_VERSION,
        type: 'confirmation_answer',
        taskId: message.taskId,
        clientId,
        timestamp: deps.now(),
        requestId: message.requestId,
        decision: message.decision,
      });
      return { ok: true };
    },
  };
}
