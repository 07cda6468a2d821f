// Calls one page-agent operation in a tab (scripting.executeScript in the isolated world),
// injecting page-agent.js first when the document does not have it yet. A page executeScript
// may not touch (the parked about:blank, page-agent-cdp.ts) goes to the fallback when one is given.
import type { BrowserApi } from '../shared/browser-api.ts';
import type { PageOpName, PageOps } from '../page/page-ops.ts';
import { messageOf } from './action-failure.ts';
import { callAgent, PAGE_AGENT_FILE, type CallOutcome } from './page-agent-call.ts';
import type { PageAgentFallback } from './page-agent-cdp.ts';

export { PAGE_AGENT_FILE };

export class PageAgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageAgentError';
  }
}

/** The child session named by an operation's target (an accessibility ref in an out-of-process frame). */
export function frameSessionOf(args: unknown): { sessionId: string; frameId: string } | undefined {
  const node = (args as { target?: { node?: { sessionId?: string; frameId?: string } } } | null)?.target?.node;
  return node?.sessionId && node.frameId ? { sessionId: node.sessionId, frameId: node.frameId } : undefined;
}

export interface PageAgentClient {
  run<K extends PageOpName>(tabId: number, op: K, args: PageOps[K]['args']): Promise<PageOps[K]['result']>;
}

export function createPageAgentClient(browser: BrowserApi, fallback?: PageAgentFallback): PageAgentClient {
  async function call(tabId: number, op: string, args: unknown): Promise<CallOutcome> {
    // A target in an out-of-process frame: executeScript's frame ids do not name it; CDP's session does.
    if (fallback && frameSessionOf(args)) {
      const served = await fallback(tabId, op, args).catch((error: unknown) => ({ error: messageOf(error) }));
      if (served) return served;
      throw new PageAgentError(`cannot run script in the frame of tab ${tabId}`);
    }
    let results;
    try {
      results = await browser.scripting.executeScript({ target: { tabId }, func: callAgent, args: [op, args] });
    } catch (error) {
      const served = fallback ? await fallback(tabId, op, args).catch(() => null) : null;
      if (served) return served;
      throw new PageAgentError(`cannot run script in tab ${tabId}: ${messageOf(error)}`);
    }
    const outcome = results[0]?.result as CallOutcome | undefined;
    if (!outcome) throw new PageAgentError(`no result from tab ${tabId} (the page may be navigating)`);
    return outcome;
  }

  return {
    async run(tabId, op, args) {
      let outcome = await call(tabId, op, args);
      if ('missing' in outcome) {
        try {
          await browser.scripting.executeScript({ target: { tabId }, files: [PAGE_AGENT_FILE] });
        } catch (error) {
          throw new PageAgentError(`cannot inject the page agent into tab ${tabId}: ${messageOf(error)}`);
        }
        outcome = await call(tabId, op, args);
      }
      if ('missing' in outcome) throw new PageAgentError(`the page agent did not start in tab ${tabId}`);
      if ('error' in outcome) throw new PageAgentError(`page operation ${op} failed: ${outcome.error}`);
      return outcome.value as never;
    },
  };
}
