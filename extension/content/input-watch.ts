// Watches for real user input on the page (trusted mouse, keyboard and touch events, captured
// on window before the page sees them). Input the extension dispatches itself arrives while
// the guard is armed (a CDP click/type in flight) and is ignored, as are events on the overlay.

export type UserInputKind = 'user_click' | 'user_key' | 'user_touch';

const EVENTS: Record<string, UserInputKind> = {
  pointerdown: 'user_click',
  mousedown: 'user_click',
  keydown: 'user_key',
  touchstart: 'user_touch',
};

/** After the extension's own input action settles, its events may still be in flight. */
export const GUARD_GRACE_MS = 150;

export interface InputWatchDeps {
  window: Window;
  isOverlayEvent(event: Event): boolean;
  onUserInput(kind: UserInputKind): void;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface InputWatch {
  /** The extension is about to dispatch input (CDP click/type). */
  armGuard(actionId: string): void;
  /** That action settled; the guard stays up for GUARD_GRACE_MS more. */
  releaseGuard(actionId: string): void;
  stop(): void;
}

export function watchUserInput(deps: InputWatchDeps): InputWatch {
  const guards = new Set<string>();
  const graceTimers = new Map<string, unknown>();

  const listener = (event: Event) => {
    if (!event.isTrusted || guards.size > 0 || deps.isOverlayEvent(event)) return;
    const kind = EVENTS[event.type];
    if (kind) deps.onUserInput(kind);
  };
  for (const type of Object.keys(EVENTS)) deps.window.addEventListener(type, listener, { capture: true, passive: true });

  return {
    armGuard(actionId) {
      const pending = graceTimers.get(actionId);
      if (pending !== undefined) deps.clearTimeout(pending);
      graceTimers.delete(actionId);
      guards.add(actionId);
    },
    releaseGuard(actionId) {
      if (!guards.has(actionId)) return;
      graceTimers.set(
        actionId,
        deps.setTimeout(() => {
          graceTimers.delete(actionId);
          guards.delete(actionId);
        }, GUARD_GRACE_MS),
      );
    },
    stop() {
      for (const type of Object.keys(EVENTS)) deps.window.removeEventListener(type, listener, { capture: true });
      for (const timer of graceTimers.values()) deps.clearTimeout(timer);
      graceTimers.clear();
      guards.clear();
    },
  };
}
