// Page half of the guard, part 2 (see page-guard-script.ts): beforeunload. Chrome brings a
// background tab to the front to ask "Leave site?" (measured in headed Chromium), so a task tab
// never asks: the page's wish to keep the person is reported and the navigation (the agent's, or
// the page's own) goes on. Serialised with toString(): uses nothing from this module.
import type { PagePost } from './page-guard-script.ts';

export function unloadGuardMain(post: PagePost): void {
  const w = window as any;
  const asked = new WeakSet<Event>();
  const wantsToStay = (event: Event) => {
    if (asked.has(event)) return;
    asked.add(event);
    post({ kind: 'beforeunload' });
  };
  const unloadProto = (w.BeforeUnloadEvent as typeof BeforeUnloadEvent | undefined)?.prototype;
  if (unloadProto) {
    Object.defineProperty(unloadProto, 'returnValue', {
      configurable: true,
      get: () => '',
      set(this: Event, value: unknown) {
        if (value !== '' && value !== undefined && value !== null && value !== false) wantsToStay(this);
      },
    });
    Object.defineProperty(unloadProto, 'preventDefault', {
      configurable: true,
      writable: true,
      value: function preventDefault(this: Event) {
        wantsToStay(this);
      },
    });
  }
  // `onbeforeunload = fn` (on window or body) keeps running fn, without its answer.
  const guardHandlerSlot = (owner: any, proto: any) => {
    const slot =
      Object.getOwnPropertyDescriptor(owner, 'onbeforeunload') ??
      (proto && Object.getOwnPropertyDescriptor(proto, 'onbeforeunload'));
    if (!slot?.set || !slot.get) return;
    let pageHandler: unknown = null;
    Object.defineProperty(owner, 'onbeforeunload', {
      configurable: true,
      get(this: unknown) {
        return pageHandler;
      },
      set(this: unknown, handler: unknown) {
        pageHandler = handler;
        slot.set!.call(
          this,
          typeof handler === 'function'
            ? function onbeforeunload(this: unknown, event: Event) {
                const answer = (handler as (e: Event) => unknown).call(this, event);
                if (answer !== undefined && answer !== null) wantsToStay(event);
              }
            : handler,
        );
      },
    });
  };
  guardHandlerSlot(w, Object.getPrototypeOf(w));
  if (w.HTMLBodyElement) guardHandlerSlot(w.HTMLBodyElement.prototype, null);
  if (w.HTMLFrameSetElement) guardHandlerSlot(w.HTMLFrameSetElement.prototype, null);
  // An inline `<body onbeforeunload="return '...'">` is compiled by the parser, past any setter:
  // this listener (registered before the page's) removes it just before it would run.
  w.addEventListener(
    'beforeunload',
    (event: Event) => {
      for (const element of [document.body, document.querySelector('frameset')]) {
        if (element?.hasAttribute('onbeforeunload')) {
          element.removeAttribute('onbeforeunload');
          wantsToStay(event);
        }
      }
    },
    true,
  );
}
