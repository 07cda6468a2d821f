// DOM helpers of the page agent: which elements are interactive, visible, their text, XPath and
// box, and resolving a clickId / XPath target with stale-ref protection.
import { behindModal } from './modal-scope.ts';
import type { BBox, PageOpFailure, RefGeneration, Scope, TargetSpec } from './page-ops.ts';
import { isA } from './realm.ts';

export const INTERACTIVE_SELECTOR = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  'label',
  '[role="button"]',
  '[role="link"]',
  '[role="checkbox"]',
  '[role="radio"]',
  '[role="menuitem"]',
  '[role="tab"]',
  '[role="option"]',
  '[role="switch"]',
  '[role="textbox"]',
  '[onclick]',
  '[contenteditable=""]',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

const TEXT_LIMIT = 160;

export function collapse(text: string | null | undefined, limit = TEXT_LIMIT): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

export function bboxOf(element: Element): BBox {
  const r = element.getBoundingClientRect();
  return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
}

export function isVisible(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return false;
  // Inside a closed <details> (content-visibility: hidden) an element can keep a box but is not shown.
  if (typeof element.checkVisibility === 'function' && !element.checkVisibility()) return false;
  const style = getComputedStyle(element);
  return (
    style.visibility !== 'hidden' &&
    style.visibility !== 'collapse' &&
    style.display !== 'none' &&
    Number(style.opacity) !== 0
  );
}

export function inViewport(element: Element): boolean {
  const r = element.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
}

export function inScope(element: Element, scope: Scope): boolean {
  return isVisible(element) && (scope === 'document' || inViewport(element));
}

/** Checkboxes and radios: what custom-styled forms hide and operate through a label. */
export function isToggleControl(element: Element): element is HTMLInputElement {
  return isA(element, 'HTMLInputElement') && (element.type === 'checkbox' || element.type === 'radio');
}

/** The first label of a form control a user could click (visible, with a box). */
export function visibleLabel(element: Element): HTMLLabelElement | null {
  const labels = (element as HTMLInputElement).labels;
  if (!labels) return null;
  for (const label of Array.from(labels)) if (isVisible(label)) return label;
  return null;
}

/** A control drawn with opacity 0 over its fake (TodoMVC's toggles): big enough to be the click target itself. */
function transparentButHittable(element: Element): boolean {
  const r = element.getBoundingClientRect();
  if (r.width < 8 || r.height < 8) return false;
  const style = getComputedStyle(element);
  return style.display !== 'none' && style.visibility === 'visible' && style.pointerEvents !== 'none';
}

/**
 * Whether the DOM index lists the element: visible ones in scope, and checkboxes / radios that
 * are visually hidden (opacity 0, clipped, 1 px, display none) but operable, through a visible
 * label or through their own transparent box. Returns 'hidden' for the latter.
 */
/** Drawn so a person cannot see it: transparent, clipped away, or a pixel or two wide. */
export function visuallyHidden(element: Element): boolean {
  const r = element.getBoundingClientRect();
  if (r.width <= 2 || r.height <= 2) return true;
  const style = getComputedStyle(element);
  return (
    Number(style.opacity) === 0 ||
    /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(style.clip) ||
    style.clipPath === 'inset(50%)'
  );
}

export function listedAs(element: Element, scope: Scope): 'visible' | 'hidden' | null {
  if (inScope(element, scope)) return isToggleControl(element) && visuallyHidden(element) ? 'hidden' : 'visible';
  if (!isToggleControl(element) || element.disabled) return null;
  const label = visibleLabel(element);
  if (label) return scope === 'document' || inViewport(label) ? 'hidden' : null;
  if (transparentButHittable(element)) return scope === 'document' || inViewport(element) ? 'hidden' : null;
  return null;
}

/** Whether a click at (x, y) lands on the element, inside it, or on one of its labels. */
export function hitsTarget(element: Element, x: number, y: number): boolean {
  const hit = document.elementFromPoint(x, y);
  if (!hit) return false;
  if (hit === element || element.contains(hit)) return true;
  const label = hit.closest('label') as HTMLLabelElement | null;
  return label !== null && label.control === element && hit.closest('a[href]') === null;
}

/** What a person would read on the element. */
export function textOf(element: Element): string {
  const html = element as HTMLElement;
  const aria = element.getAttribute('aria-label');
  if (aria) return collapse(aria);
  if (isA(element, 'HTMLInputElement') || isA(element, 'HTMLTextAreaElement')) {
    if (isA(element, 'HTMLInputElement') && ['button', 'submit', 'reset'].includes(element.type))
      return collapse(element.value);
    // A password never leaves the page: its field is described by placeholder or name only.
    if (isA(element, 'HTMLInputElement') && element.type === 'password')
      return collapse(element.placeholder || element.name);
    return collapse(element.value || element.placeholder || element.name);
  }
  if (isA(element, 'HTMLSelectElement')) return collapse(element.selectedOptions[0]?.textContent ?? '');
  const text = collapse(html.innerText ?? element.textContent);
  return text || collapse(element.getAttribute('title') ?? element.getAttribute('alt') ?? '');
}

const SIMPLE_ID = /^[A-Za-z][\w-]*$/;

/** An absolute XPath; anchored on a unique id when an ancestor has one. */
export function xpathOf(element: Element): string {
  const steps: string[] = [];
  for (let node: Element | null = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
    const id = node.getAttribute('id');
    if (id && SIMPLE_ID.test(id) && document.querySelectorAll(`#${CSS.escape(id)}`).length === 1) {
      steps.unshift(`//*[@id="${id}"]`);
      return steps.join('/');
    }
    const tag = node.localName;
    let index = 1;
    let count = 0;
    for (const sibling of node.parentElement ? Array.from(node.parentElement.children) : [node]) {
      if (sibling.localName !== tag) continue;
      count += 1;
      if (sibling === node) index = count;
    }
    steps.unshift(count > 1 ? `${tag}[${index}]` : tag);
  }
  return `/${steps.join('/')}`;
}

export function elementByXpath(xpath: string): Element | PageOpFailure {
  let node: Node | null;
  try {
    node = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  } catch (error) {
    return {
      ok: false,
      reason: 'bad_xpath',
      message: `invalid XPath ${JSON.stringify(xpath)}: ${(error as Error).message}`,
    };
  }
  if (!isA(node, 'Element')) return { ok: false, reason: 'not_found', message: `no element matches XPath ${xpath}` };
  return node;
}

/**
 * The element a target names. A clickId must come from the generation `ref` describes, in this
 * very document: an id from an older index, or after a navigation, is `stale` and never
 * resolves to whatever element carries that number now.
 */
export function resolveTarget(
  target: TargetSpec,
  state: { docToken: string; current: RefGeneration | null },
): Element | PageOpFailure {
  const element = targetElement(target, state);
  // Not `instanceof Element`: an element of a same-origin frame belongs to another realm.
  if ((element as PageOpFailure).ok === false) return element as PageOpFailure;
  const modal = behindModal(element as Element);
  if (modal)
    return {
      ok: false,
      reason: 'outside_modal',
      message: `the element is behind the open modal ${modal}: close the dialog or act inside it`,
    };
  return element;
}

/** The first element matching `selector` in the document, its open shadow roots and its same-origin frames. */
function deepQuery(root: Document | ShadowRoot, selector: string): Element | null {
  const direct = root.querySelector(selector);
  if (direct) return direct;
  for (const element of Array.from(root.querySelectorAll('*'))) {
    if (element.shadowRoot) {
      const found = deepQuery(element.shadowRoot, selector);
      if (found) return found;
    }
    if (isA(element, 'HTMLIFrameElement')) {
      let doc: Document | null = null;
      try {
        doc = element.contentDocument;
      } catch {
        doc = null;
      }
      const found = doc ? deepQuery(doc, selector) : null;
      if (found) return found;
    }
  }
  return null;
}

function targetElement(
  target: TargetSpec,
  state: { docToken: string; current: RefGeneration | null },
): Element | PageOpFailure {
  if (target.mark) {
    // An accessibility-tree ref the background has just marked through CDP (background/ax-target.ts).
    const element = deepQuery(document, `[${CSS.escape(target.mark.attr)}="${CSS.escape(target.mark.value)}"]`);
    return (
      element ?? {
        ok: false,
        reason: 'stale',
        message: `element ${target.clickId ?? ''} is no longer in the page; index again`,
      }
    );
  }
  if (target.clickId !== undefined) {
    const ref = target.ref;
    if (!ref)
      return {
        ok: false,
        reason: 'no_index',
        message: 'clickId given but this tab was never indexed; call browser_dom_index first',
      };
    if (ref.docToken !== state.docToken) {
      return {
        ok: false,
        reason: 'stale',
        message: `clickId ${target.clickId} belongs to a page that is gone (the tab navigated); index again`,
      };
    }
    if (!state.current || state.current.firstId !== ref.firstId) {
      return {
        ok: false,
        reason: 'stale',
        message: `clickId ${target.clickId} is from an older index of this page; index again`,
      };
    }
    const element = document.querySelector(`[${CSS.escape(ref.attr)}="${target.clickId}"]`);
    if (!element || !element.isConnected) {
      return {
        ok: false,
        reason: 'stale',
        message: `element ${target.clickId} left the page after it was indexed; index again`,
      };
    }
    return element;
  }
  if (target.xpath !== undefined) return elementByXpath(target.xpath);
  return { ok: false, reason: 'no_target', message: 'no target: give clickId or xpath' };
}
