// Whether a form's submit event really happened: browser_type with submit presses
// Enter, which in a textarea is a line break, and a page may handle a submit without navigating.
// The page agent arms a capture listener before Enter and reads it after, so the result can say
// `submitted` only when the page saw a submit.
import type { PageOps } from './page-ops.ts';

const SUBMIT_SEEN = '__mimoSubmitSeen';
const SUBMIT_WATCH = '__mimoSubmitWatch';

export function submitWatch(args: PageOps['submitWatch']['args']): PageOps['submitWatch']['result'] {
  const g = globalThis as Record<string, unknown>;
  if (args.arm) {
    g[SUBMIT_SEEN] = false;
    if (!g[SUBMIT_WATCH]) {
      g[SUBMIT_WATCH] = true;
      addEventListener('submit', () => void (g[SUBMIT_SEEN] = true), { capture: true });
    }
    return { ok: true, seen: false };
  }
  return { ok: true, seen: g[SUBMIT_SEEN] === true };
}
