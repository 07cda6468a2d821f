// Watches for real user input on the page (trusted mouse, keyboard and touch events, captured
// on window before the page sees them). The extension's own CDP input arrives while the
// own-input guard is armed (shared/own-input-guard.ts) and is ignored, as are events on the
// overlay.

export type UserInputKind = 'user_click' | 'user_key' | 'user_touch';

const EVENTS: Record<string, UserInputKind> = {
  pointerdown: 'user_click',
  mousedown: 'user_click',
  keydown: 'user_key',
  touchstart: 'user_touch',
};

export interface InputWatchDeps {
  window: Window;
  isOverlayEvent(event: Event): boolean;
  /** True while the extension itself is dispatching input. */
  ownInputActive(): boolean;
  onUserInput(kind: UserInputKind): void;
}

/** Starts watching; returns stop(). */
export function watchUserInput(deps: InputWatchDeps): () => void {
  const listener = (event: Event) => {
    if (!event.isTrusted || deps.ownInputActive() || deps.isOverlayEvent(event)) return;
    const kind = EVENTS[event.type];
    if (kind) deps.onUserInput(kind);
  };
  for (const type of Object.keys(EVENTS))
    deps.window.addEventListener(type, listener, { capture: true, passive: true });
  return () => {
    for (const type of Object.keys(EVENTS)) deps.window.removeEventListener(type, listener, { capture: true });
  };
}
