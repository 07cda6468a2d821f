// The main-world half of the interruption guard, installed in task tabs only (through CDP
// `Page.addScriptToEvaluateOnNewDocument`, so it runs before the page's own scripts, and
// `Runtime.evaluate` for the document already loaded). It turns what a page could do to the
// person's screen into reports to the extension, over a CDP binding (`Runtime.addBinding`) whose
// global it hides at once:
// - `window.open` and untrusted clicks on `target` links / GET forms with a new-tab target:
//   reported as `open` (the extension opens the URL as a background tab of the task); window.open
//   returns a small stand-in for the new window (closed, close(), focus(), location); a POST form
//   into a new tab is handed back to the extension to be submitted again in the background;
// - `window.focus()`, `print()`, fullscreen requests, links to other applications (mailto:, ...):
//   do nothing and are reported;
// - permission prompts (notifications, geolocation, camera/microphone, screen capture, device
//   choosers, clipboard reads, file pickers): denied at once, as if the person said no, and reported.
// The functions below (and those of page-guard-unload.ts, page-guard-prompts.ts) are serialised
// with toString(): they must not use anything from their modules.

/** Messages the page half sends; `JSON.stringify`ed through the binding. */
import { promptGuardMain } from './page-guard-prompts.ts';
import { unloadGuardMain } from './page-guard-unload.ts';

/** Sends one message to the extension (over the binding). */
export type PagePost = (message: Record<string, unknown>) => void;

export type PageGuardMessage =
  | { kind: 'open'; openId: string; url: string; target: string; via: 'window.open' | 'link' | 'form' }
  | { kind: 'open_blocked'; url: string; reason: string }
  | { kind: 'external_app'; url: string }
  | { kind: 'navigate'; openId: string; url: string }
  | { kind: 'resubmit'; formId: string; url: string }
  | { kind: 'close'; openId: string }
  | { kind: 'focus' | 'print' | 'fullscreen' | 'beforeunload' }
  | { kind: 'permission'; permission: string };

export function pageGuardMain(bindingName: string): ((message: Record<string, unknown>) => void) | undefined {
  const w = window as any;
  if (w.__mimoPageGuard) return undefined;
  Object.defineProperty(w, '__mimoPageGuard', { value: true });
  let binding: ((payload: string) => void) | undefined = w[bindingName];
  try {
    delete w[bindingName];
  } catch {
    // not configurable: it stays, which only costs secrecy
  }
  const post = (message: Record<string, unknown>) => {
    binding ??= w[bindingName];
    if (typeof binding === 'function') binding(JSON.stringify(message));
  };
  const sameContext = (target: string) => ['_self', '_parent', '_top'].includes(target.toLowerCase());
  const namedFrame = (target: string) => {
    if (target === '' || target.toLowerCase() === '_blank') return false;
    try {
      return Array.from(document.querySelectorAll('iframe[name],frame[name]')).some(
        (f) => f.getAttribute('name') === target,
      );
    } catch {
      return false;
    }
  };
  const resolve = (url: unknown) => {
    const text = url === undefined || url === null ? '' : String(url);
    if (text === '') return 'about:blank';
    try {
      return new URL(text, document.baseURI).href;
    } catch {
      return text;
    }
  };
  let counter = 0;
  const nativeOpen = w.open;

  // What window.open returns: enough for the usual `w = open(); w.location = url; w.close()`.
  const standIn = (openId: string, href: string) => {
    let closed = false;
    const location = {
      get href() {
        return href;
      },
      set href(next: string) {
        href = resolve(next);
        post({ kind: 'navigate', openId, url: href });
      },
      assign(next: string) {
        location.href = next;
      },
      replace(next: string) {
        location.href = next;
      },
      toString() {
        return href;
      },
    };
    return {
      get closed() {
        return closed;
      },
      get location() {
        return location;
      },
      set location(next: unknown) {
        location.href = String(next);
      },
      opener: null,
      close() {
        if (!closed) post({ kind: 'close', openId });
        closed = true;
      },
      focus() {},
      blur() {},
      postMessage() {},
    };
  };

  // Guarding a document that already runs (the guard arrives after the page's scripts): a page
  // that declared its own global `function open` keeps it (replacing it broke the page's widget).
  const ownOpen = !/\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(nativeOpen));
  if (!ownOpen)
    w.open = function open(url?: unknown, target?: unknown, features?: unknown) {
      const name = target === undefined || target === null ? '' : String(target);
      if (sameContext(name) || namedFrame(name)) return nativeOpen.call(w, url, target, features);
      const href = resolve(url);
      // Chrome's popup blocker asks for user activation; so do we (the agent's clicks provide it).
      if (navigator.userActivation && !navigator.userActivation.isActive) {
        post({ kind: 'open_blocked', url: href, reason: 'no user activation' });
        return null;
      }
      const openId = `open-${Date.now().toString(36)}-${++counter}`;
      post({ kind: 'open', openId, url: href, target: name, via: 'window.open' });
      return standIn(openId, href);
    };

  const opensNewContext = (target: string) => target !== '' && !sameContext(target) && !namedFrame(target);
  // Untrusted clicks (`a.click()` from a script) on a new-tab link: the default action would open
  // a foreground tab. Trusted clicks are the agent's (CDP, with Ctrl held: Chrome opens those in
  // the background itself) or the person's during a takeover, and are left alone. The listener
  // added during capture runs last in the bubble phase, after the page's own handlers.
  w.addEventListener(
    'click',
    (event: MouseEvent) => {
      if (event.isTrusted) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.hasAttribute('download') || !opensNewContext(link.target)) return;
      w.addEventListener(
        'click',
        (late: MouseEvent) => {
          if (late !== event || late.defaultPrevented) return;
          late.preventDefault();
          post({
            kind: 'open',
            openId: `open-${Date.now().toString(36)}-${++counter}`,
            url: link.href,
            target: link.target,
            via: 'link',
          });
        },
        { once: true },
      );
    },
    true,
  );
  // Links to another application (mailto:, tel:, custom schemes): Chrome would ask "Open xdg-open?"
  // in a tab-modal dialog that waits in the task tab (and stalls its next navigations, measured).
  const WEB_SCHEMES = ['http:', 'https:', 'about:', 'blob:', 'data:', 'javascript:', 'file:', 'chrome-extension:'];
  w.addEventListener(
    'click',
    (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || WEB_SCHEMES.includes(link.protocol)) return;
      w.addEventListener(
        'click',
        (late: MouseEvent) => {
          if (late !== event || late.defaultPrevented) return;
          late.preventDefault();
          post({ kind: 'external_app', url: link.href.slice(0, 300) });
        },
        { once: true },
      );
    },
    true,
  );

  // Forms into a new tab (requestSubmit(), form.submit(), a script's or the agent's click): a GET
  // form becomes a background tab with its query; a POST form is marked and handed to the
  // extension, which submits it again from an isolated world with Ctrl held (Chrome honours a
  // new-tab modifier on an event made in an extension's isolated world: the tab opens in the
  // background, and the POST keeps the page's origin, cookies and files). That second submission
  // is invisible to the page's own submit listeners.
  const RESUBMITTING = 'data-mimo-resubmitting';
  const divert = (form: HTMLFormElement, submitter: HTMLButtonElement | HTMLInputElement | null): boolean => {
    const target = submitter?.getAttribute('formtarget') ?? form.getAttribute('target') ?? '';
    if (!opensNewContext(target)) return false;
    if (navigator.userActivation && !navigator.userActivation.isActive) return false; // Chrome's pop-up blocker decides
    const method = (submitter?.getAttribute('formmethod') || form.method || 'get').toLowerCase();
    const action = new URL(submitter?.getAttribute('formaction') || form.action, document.baseURI);
    if (method === 'get') {
      action.search = new URLSearchParams(
        new FormData(form, submitter ?? undefined) as unknown as Record<string, string>,
      ).toString();
      post({
        kind: 'open',
        openId: `open-${Date.now().toString(36)}-${++counter}`,
        url: action.href,
        target,
        via: 'form',
      });
      return true;
    }
    if (method !== 'post') return false;
    const formId = `form-${Date.now().toString(36)}-${++counter}`;
    form.setAttribute('data-mimo-resubmit', formId);
    post({ kind: 'resubmit', formId, url: action.href });
    return true;
  };
  w.addEventListener(
    'submit',
    (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      if (form.hasAttribute(RESUBMITTING)) {
        form.removeAttribute(RESUBMITTING);
        event.stopImmediatePropagation();
        return;
      }
      const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null;
      w.addEventListener(
        'submit',
        (late: SubmitEvent) => {
          if (late === event && !late.defaultPrevented && divert(form, submitter)) late.preventDefault();
        },
        { once: true },
      );
    },
    true,
  );
  const nativeSubmit = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function submit(this: HTMLFormElement) {
    if (this.hasAttribute(RESUBMITTING) || !divert(this, null)) nativeSubmit.call(this);
  };

  return post;
}

/**
 * The script text for CDP: the three functions applied in turn (the first makes `post` from the
 * binding). `__name` is defined because a test runner that keeps function names (tsx) calls it
 * inside the functions.
 */
export function pageGuardSource(bindingName: string): string {
  return [
    '(() => {',
    'const __name = (f) => f;',
    `const post = (${pageGuardMain.toString()})(${JSON.stringify(bindingName)});`,
    'if (!post) return;',
    `(${unloadGuardMain.toString()})(post);`,
    `(${promptGuardMain.toString()})(post);`,
    '})();',
  ].join('\n');
}
