// browser_debugger_attach: attach chrome.debugger to the task tab and turn on focus emulation.
// Refused or disabled -> CDP_UNAVAILABLE (later input actions fall back to DOM strategies).
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { requireTaskTab } from '../tab-guard.ts';

export const debuggerAttach: ActionHandler<'browser_debugger_attach'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  try {
    await ctx.cdp.attach(params.tabId);
  } catch (error) {
    if (error instanceof CdpError) fail('CDP_UNAVAILABLE', error.message, { reason: error.kind });
    throw error;
  }
  return { attached: true };
};
