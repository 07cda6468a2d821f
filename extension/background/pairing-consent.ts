// The person's yes before this browser is paired with a server. A page on a
// web UI origin can ask to pair ("Connect this browser"), but only the person can say yes: the
// background opens the extension's own options page on `options.html#pair=<id>`, which asks
// "Connect this browser to <origin>?" with Connect / Don't connect. No web page can reach that
// page or answer for it: the answer is an options message, accepted only from an extension page
// (message-router.ts). No answer within PAIRING_CONSENT_TIMEOUT_MS is a no.
//
// The question's tab is opened next to the asking page (its opener) and closed once answered or
// timed out, so the person is back on the web UI, which shows the outcome.
//
// One question at a time: a second request for the same origin shares the open question; a
// request for another origin while one is open is refused at once (a page cannot bury the person
// in tabs).
import type { BrowserApi, Timers } from '../shared/browser-api.ts';

export const PAIRING_CONSENT_TIMEOUT_MS = 120_000;

export interface PairingQuestion {
  id: string;
  origin: string;
}

export interface PairingConsentDeps {
  browser: Pick<BrowserApi, 'tabs' | 'runtime'>;
  timers: Timers;
  newId(): string;
  timeoutMs?: number;
}

export interface PairingConsent {
  /** Opens the question in the extension and resolves with the person's answer (false on timeout). */
  ask(origin: string, openerTabId?: number): Promise<boolean>;
  /** The open question with this id (for the options page), or null. */
  question(id: string): PairingQuestion | null;
  /** The person's answer from the options page; false when no such question is open. */
  answer(id: string, allow: boolean): boolean;
}

interface Open extends PairingQuestion {
  answered: Promise<boolean>;
  settle(allow: boolean): void;
}

export function createPairingConsent(deps: PairingConsentDeps): PairingConsent {
  let open: Open | null = null;

  return {
    ask(origin, openerTabId) {
      if (open) return open.origin === origin ? open.answered : Promise.resolve(false);
      const id = deps.newId();
      let settle!: (allow: boolean) => void;
      let questionTab: number | undefined;
      const answered = new Promise<boolean>((resolve) => (settle = resolve));
      const timer = deps.timers.setTimeout(() => current.settle(false), deps.timeoutMs ?? PAIRING_CONSENT_TIMEOUT_MS);
      const current: Open = {
        id,
        origin,
        answered,
        settle: (allow) => {
          if (open !== current) return;
          open = null;
          deps.timers.clearTimeout(timer);
          if (questionTab !== undefined) void deps.browser.tabs.remove(questionTab).catch(() => {});
          settle(allow);
        },
      };
      open = current;
      const url = deps.browser.runtime.getURL(`options.html#pair=${encodeURIComponent(id)}`);
      deps.browser.tabs.create({ url, active: true, ...(openerTabId !== undefined ? { openerTabId } : {}) }).then(
        (tab) => {
          if (open === current) questionTab = tab.id;
          else if (tab.id !== undefined) void deps.browser.tabs.remove(tab.id).catch(() => {});
        },
        () => current.settle(false),
      );
      return answered;
    },
    question(id) {
      return open && open.id === id ? { id: open.id, origin: open.origin } : null;
    },
    answer(id, allow) {
      if (!open || open.id !== id) return false;
      open.settle(allow);
      return true;
    },
  };
}
