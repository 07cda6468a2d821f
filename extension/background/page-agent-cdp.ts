// The page agent over CDP, for the one page chrome.scripting cannot reach: the about:blank a
// task tab is parked on. Any about:blank the extension navigates to (tabs.update, and CDP
// Page.navigate from the extension's debugger alike: measured in Chromium 156) inherits the
// extension's origin, and executeScript then refuses it ("Cannot access contents of url
// chrome-extension://<id>/"), so after a refused navigation no read worked. The
// debugger can still run the same page agent there, in an isolated world of the main frame.
// Only about:blank in an attached tab is served this way, and operations on a target inside an
// out-of-process frame (run in that frame's child session); everything else stays with
// executeScript (null = not served).
import type { BrowserApi } from '../shared/browser-api.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import { callAgent, PAGE_AGENT_FILE, type CallOutcome } from './page-agent-call.ts';
import { frameSessionOf } from './page-agent-client.ts';

export interface CdpPageAgentDeps {
  browser: BrowserApi;
  cdp: CdpSessions;
  /** Reads an extension file's text (the built page agent). */
  fetchText(url: string): Promise<string>;
}

export type PageAgentFallback = (tabId: number, op: string, args: unknown) => Promise<CallOutcome | null>;

const WORLD_NAME = 'mimo-page-agent';

interface Evaluated {
  result?: { value?: unknown };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

export function createCdpPageAgent(deps: CdpPageAgentDeps): PageAgentFallback {
  let source: Promise<string> | null = null;
  const agentSource = (): Promise<string> => {
    source ??= deps.fetchText(deps.browser.runtime.getURL(PAGE_AGENT_FILE)).catch((error: unknown) => {
      source = null;
      throw error;
    });
    return source;
  };

  /** Runs the agent in a fresh isolated world of `frameId` (no state can leak between calls). */
  async function runIn(
    tabId: number,
    frameId: string,
    sessionId: string | undefined,
    op: string,
    args: unknown,
  ): Promise<CallOutcome | null> {
    const options = sessionId ? { sessionId } : undefined;
    const world = await deps.cdp
      .send<{
        executionContextId?: number;
      }>(tabId, 'Page.createIsolatedWorld', { frameId, worldName: WORLD_NAME }, options)
      .catch(() => undefined);
    if (world?.executionContextId === undefined) return null;
    const expression = `${await agentSource()}\n;(${callAgent.toString()})(${JSON.stringify(op)}, ${JSON.stringify(args ?? null)})`;
    const evaluated = await deps.cdp
      .send<Evaluated>(
        tabId,
        'Runtime.evaluate',
        { expression, contextId: world.executionContextId, returnByValue: true },
        options,
      )
      .catch(() => undefined);
    if (!evaluated) return null;
    if (evaluated.exceptionDetails)
      return {
        error:
          evaluated.exceptionDetails.exception?.description ??
          evaluated.exceptionDetails.text ??
          'the page agent threw',
      };
    const outcome = evaluated.result?.value as CallOutcome | undefined;
    return outcome && typeof outcome === 'object' ? outcome : null;
  }

  return async (tabId, op, args) => {
    if (!deps.cdp.isAttached(tabId)) return null;
    const frame = frameSessionOf(args);
    if (frame) return runIn(tabId, frame.frameId, frame.sessionId, op, args);
    const tab = await deps.browser.tabs.get(tabId).catch(() => undefined);
    if (!tab || !/^about:blank(#.*)?$/i.test(tab.url ?? '')) return null;
    const tree = await deps.cdp
      .send<{ frameTree?: { frame?: { id?: string } } }>(tabId, 'Page.getFrameTree')
      .catch(() => undefined);
    const frameId = tree?.frameTree?.frame?.id;
    if (!frameId) return null;
    return runIn(tabId, frameId, undefined, op, args);
  };
}
