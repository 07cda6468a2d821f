// MCP browser sessions, shared by browser-shell (`session_id`) and template runs (`sessionId`):
// each session has a main task tab (the one browser-shell drives and login_keep_session logs
// into, so a kept login can be continued with browser-shell) and worker tabs that template
// steps open and close. Every tab holds a slot of the tab budget while it is open.
import type { McpConsequentialPolicy } from './consequential-policy.ts';
import { ulid } from 'ulid';
import { errorValue, type ErrorValue } from '../../../machines/index.ts';
import type { UrlCheck } from '../../agent/task-browser.ts';
import type { RuntimeServices } from '../../services/runtime-services.ts';
import { createPageDriver, type PageDriver } from './page-driver.ts';
import type { TabBudget } from './tab-budget.ts';

/** seed 004 §3.2; template session ids follow the same rule. */
export const SESSION_ID_PATTERN = /^[a-zA-Z0-9._-]{1,64}$/;

export interface BrowserSession {
  sessionId: string;
  createdAt: number;
  lastUsedAt: number;
  /** Created for one run and closed with it (not for login_keep_session). */
  ephemeral: boolean;
  /** The main tab, once opened. */
  main: PageDriver | null;
  workers: Set<PageDriver>;
  /**
   * The MCP session id of the client that claimed this session with browser-shell; other MCP
   * clients get an error for this session_id. Undefined: unclaimed (made by a template run or a
   * one-shot request without an MCP session).
   */
  owner?: string;
  /** Free-form per-session state of browser-shell (snapshot refs, last field). */
  shell: Record<string, unknown>;
}

export interface BrowserSessionsDeps {
  services: RuntimeServices;
  budget: TabBudget;
  checkUrl: UrlCheck;
  checkFinalUrl: UrlCheck;
  /** Consequential steps of MCP runs (default refuse: CONFIRMATION_REQUIRED). */
  consequentialSteps?: McpConsequentialPolicy;
  /** A tab of the session gets its task (told before the task actor starts; the session recorder). */
  onTaskOpening?: (sessionId: string, role: 'main' | 'worker', taskId: string) => void;
  /** That tab's task closed (its close settled, whether or not the plugin confirmed it). */
  onTaskClosed?: (sessionId: string, taskId: string) => void;
}

export type BrowserSessions = ReturnType<typeof createBrowserSessions>;

export function createBrowserSessions(deps: BrowserSessionsDeps) {
  const { services, budget } = deps;
  const sessions = new Map<string, BrowserSession>();

  const driverFor = (sessionId: string, role: 'main' | 'worker') => {
    const taskId = ulid();
    deps.onTaskOpening?.(sessionId, role, taskId);
    return createPageDriver(services, {
      taskId,
      groupTitle: `MCP ${sessionId}${role === 'main' ? '' : ` (${role})`}`.slice(0, 80),
      checkUrl: deps.checkUrl,
      checkFinalUrl: deps.checkFinalUrl,
      ...(deps.consequentialSteps ? { consequentialSteps: deps.consequentialSteps } : {}),
    });
  };

  /** Closes a tab's task and tells onTaskClosed. */
  const closePage = (sessionId: string, page: PageDriver) =>
    page.close().finally(() => deps.onTaskClosed?.(sessionId, page.taskId));

  function ensure(sessionId: string, ephemeral = false): BrowserSession {
    let session = sessions.get(sessionId);
    if (!session) {
      const now = services.clock.now();
      session = { sessionId, createdAt: now, lastUsedAt: now, ephemeral, main: null, workers: new Set(), shell: {} };
      sessions.set(sessionId, session);
    }
    session.lastUsedAt = services.clock.now();
    return session;
  }

  return {
    get: (sessionId: string) => sessions.get(sessionId),
    ensure,
    /** A fresh session id for a run that did not name one. */
    newSessionId: () => `sess_${ulid()}`,
    list: () => [...sessions.values()],

    /** The session's main tab driver, taking a tab slot the first time (no waiting). */
    main(session: BrowserSession): { ok: true; page: PageDriver } | { ok: false; error: ErrorValue } {
      if (session.main && !session.main.closed) return { ok: true, page: session.main };
      if (!budget.tryAcquire(session.sessionId)) {
        return {
          ok: false,
          error: errorValue(
            'TAB_LIMIT_REACHED',
            `no tab slot free (at most ${budget.limits.perSession} per session and ${budget.limits.total} in all); close a session or wait for runs to finish`,
            {
              retryable: true,
              details: { inUse: budget.inUse(), sessionInUse: budget.inUse(session.sessionId) },
            },
          ),
        };
      }
      session.main = driverFor(session.sessionId, 'main');
      return { ok: true, page: session.main };
    },

    /** A worker tab for one step: waits for a slot; close it with `closeWorker`. */
    async openWorker(session: BrowserSession, signal?: AbortSignal): Promise<PageDriver> {
      await budget.acquire(session.sessionId, signal);
      const page = driverFor(session.sessionId, 'worker');
      session.workers.add(page);
      return page;
    },

    async closeWorker(session: BrowserSession, page: PageDriver): Promise<void> {
      if (!session.workers.delete(page)) return;
      try {
        await closePage(session.sessionId, page);
      } finally {
        budget.release(session.sessionId);
      }
    },

    /** Closes the main tab only (browser-shell `close`); the session stays usable. */
    async closeMain(session: BrowserSession): Promise<{ ok: true } | { ok: false; error: ErrorValue }> {
      const main = session.main;
      if (!main) return { ok: true };
      session.main = null;
      session.shell = {};
      try {
        const closed = await closePage(session.sessionId, main);
        return closed.ok ? { ok: true } : closed;
      } finally {
        budget.release(session.sessionId);
      }
    },

    /** Marks the session as used now (idle sessions are swept). */
    touch(sessionId: string): void {
      const session = sessions.get(sessionId);
      if (session) session.lastUsedAt = services.clock.now();
    },

    /** Closes sessions unused for `idleMs` that no worker tab or `busy` run holds; returns their ids. */
    async sweepIdle(idleMs: number, busy: (sessionId: string) => boolean): Promise<string[]> {
      const cutoff = services.clock.now() - idleMs;
      const idle = [...sessions.values()]
        .filter((s) => s.lastUsedAt < cutoff && s.workers.size === 0 && !busy(s.sessionId))
        .map((s) => s.sessionId);
      await Promise.allSettled(idle.map((id) => close(id)));
      return idle;
    },

    /** Closes every tab of the session and forgets it. */
    close,

    async closeAll(): Promise<void> {
      await Promise.allSettled([...sessions.keys()].map((id) => close(id)));
    },
  };

  async function close(sessionId: string): Promise<void> {
    const session = sessions.get(sessionId);
    if (!session) return;
    sessions.delete(sessionId);
    const closing: Array<Promise<unknown>> = [];
    for (const page of session.workers) {
      closing.push(closePage(sessionId, page).finally(() => budget.release(sessionId)));
    }
    session.workers.clear();
    if (session.main) {
      const main = session.main;
      session.main = null;
      closing.push(closePage(sessionId, main).finally(() => budget.release(sessionId)));
    }
    await Promise.allSettled(closing);
  }
}
