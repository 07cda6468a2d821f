// Target-based page operations: locate (scroll into view, centre point) for CDP input, and the
// DOM fallbacks dom_click / dom_input of seed 000 §4.6.
import { armOwnInput } from '../shared/own-input-guard.ts';
import { hitsTarget, inViewport, isToggleControl, isVisible, resolveTarget, visibleLabel } from './element-lookup.ts';
import type { PageOpFailure, PageOps, RefGeneration, TargetSpec } from './page-ops.ts';
import { isA } from './realm.ts';
import { inMotion } from './motion.ts';

type RefState = { docToken: string; current: RefGeneration | null };

function isFailure(value: Element | PageOpFailure): value is PageOpFailure {
  return (value as PageOpFailure).ok === false; // not instanceof: an element of a same-origin frame is of another realm
}

function fullyInViewport(element: Element): boolean {
  const r = element.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
}

function describe(element: Element): string {
  const id = element.id ? `#${element.id}` : '';
  return `${element.localName}${id}`;
}

type Point = { x: number; y: number };

/**
 * Scrolls the element into view when needed; a point on it, or null when it has no box on
 * screen. A link wrapped over two lines has two boxes and its bounding box's centre lies on the
 * text between them: the centre of the first box that a click there would reach wins.
 */
function centreOf(element: Element): Point | null {
  let r = element.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  if (!fullyInViewport(element)) {
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    r = element.getBoundingClientRect();
  }
  if (!inViewport(element)) return null;
  const centre = { x: Math.round((r.left + r.right) / 2), y: Math.round((r.top + r.bottom) / 2) };
  const boxes = Array.from(element.getClientRects());
  if (boxes.length <= 1 || hitsTarget(element, centre.x, centre.y)) return centre;
  for (const box of boxes) {
    if (box.width < 1 || box.height < 1 || box.bottom <= 0 || box.top >= window.innerHeight) continue;
    const point = {
      x: Math.round(box.left + Math.min(box.width / 2, Math.max(1, box.width - 2))),
      y: Math.round((box.top + box.bottom) / 2),
    };
    if (hitsTarget(element, point.x, point.y)) return point;
  }
  return centre;
}

/**
 * Where a user would click to operate the element. A checkbox or radio that is visually hidden
 * (opacity 0 behind a styled label, clipped to 1 px, display none) is clicked through its
 * visible label, or through its own box when that box is what a click lands on.
 */
function clickPoint(element: Element): (Point & { via?: 'label' }) | PageOpFailure {
  if (!isToggleControl(element)) {
    const own = centreOf(element);
    return own ?? { ok: false, reason: 'not_visible', message: `${describe(element)} has no visible box to click` };
  }
  const own = isVisible(element) || element.getBoundingClientRect().width >= 8 ? centreOf(element) : null;
  if (own && hitsTarget(element, own.x, own.y)) return own;
  const label = visibleLabel(element);
  const onLabel = label ? centreOf(label) : null;
  if (onLabel && hitsTarget(element, onLabel.x, onLabel.y)) return { ...onLabel, via: 'label' };
  if (own && isVisible(element)) return own; // covered: clicked anyway, reported as obscured
  return {
    ok: false,
    reason: 'not_visible',
    message: `${describe(element)} is hidden and has no visible label to click`,
    operableByDom: true,
  };
}

function submitsForm(element: Element): boolean {
  if (isA(element, 'HTMLButtonElement')) return element.type === 'submit' && element.form !== null;
  if (isA(element, 'HTMLInputElement'))
    return (element.type === 'submit' || element.type === 'image') && element.form !== null;
  return false;
}

export function locate(args: PageOps['locate']['args'], state: RefState): PageOps['locate']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  const point = clickPoint(element);
  if ('ok' in point) return point;
  // The background dispatches CDP input at this point next: not the user's input.
  armOwnInput(globalThis as unknown as Record<string, unknown>, Date.now());
  const { x, y } = point;
  if (args.focus && isA(element, 'HTMLElement')) element.focus({ preventScroll: true });
  const hit = document.elementFromPoint(x, y);
  const link = element.closest('a[href]');
  const newContext = (target: string) => target !== '' && !['_self', '_parent', '_top'].includes(target.toLowerCase());
  // A submit button of a form that targets a new tab opens one too (formtarget wins over target).
  const submitter = element.closest('button, input[type=submit], input[type=image]') as
    HTMLButtonElement | HTMLInputElement | null;
  const submits =
    submitter !== null && submitter.form !== null && submitter.type !== 'button' && submitter.type !== 'reset';
  const opensNewTab =
    (link !== null && newContext(link.getAttribute('target') ?? '') && !link.hasAttribute('download')) ||
    (submits && newContext(submitter!.getAttribute('formtarget') ?? submitter!.form!.getAttribute('target') ?? ''));
  const mac = /Mac/i.test(navigator.platform);
  const result: PageOps['locate']['result'] = {
    ok: true,
    x,
    y,
    tag: element.localName,
    opensNewTab,
    mac,
    submitsForm: submitsForm(element),
  };
  if (point.via) result.via = point.via;
  if (inMotion(element)) result.moving = true;
  if (hit && !hitsTarget(element, x, y) && !hit.contains(element)) result.obscuredBy = describe(hit);
  return result;
}

export function domClick(args: PageOps['domClick']['args'], state: RefState): PageOps['domClick']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!fullyInViewport(element)) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = element.getBoundingClientRect();
  const init = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2,
    button: 0,
  };
  element.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }));
  if (isA(element, 'HTMLElement')) element.focus({ preventScroll: true });
  element.dispatchEvent(new PointerEvent('pointerup', { ...init, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mouseup', init));
  if (isA(element, 'HTMLElement')) element.click();
  else element.dispatchEvent(new MouseEvent('click', init));
  return { ok: true, tag: element.localName };
}

type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

/** Inputs that take no text at all. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image']);
/** Inputs whose value a user sets with a widget, not keystrokes: filled by setting the value (as Playwright's fill does). */
export const SET_DIRECTLY = new Set(['range', 'color', 'date', 'datetime-local', 'month', 'week', 'time']);

function editableTarget(target: TargetSpec | null, state: RefState): Editable | PageOpFailure {
  let element: Element | null;
  if (target && (target.clickId !== undefined || target.xpath !== undefined)) {
    const found = resolveTarget(target, state);
    if (isFailure(found)) return found;
    element = found;
  } else {
    element = document.activeElement;
    if (!element || element === document.body || element === document.documentElement) {
      return { ok: false, reason: 'no_target', message: 'no target given and no element has focus' };
    }
  }
  if (isA(element, 'HTMLInputElement') || isA(element, 'HTMLTextAreaElement')) {
    if (element.disabled || element.readOnly)
      return { ok: false, reason: 'not_editable', message: `${describe(element)} is disabled or read-only` };
    if (isA(element, 'HTMLInputElement') && NOT_TYPED.has(element.type)) {
      return {
        ok: false,
        reason: 'not_editable',
        message: `${describe(element)} is a ${element.type}: use check / uncheck (or click) instead of typing`,
      };
    }
    return element;
  }
  if (isA(element, 'HTMLElement') && element.isContentEditable) return element;
  return { ok: false, reason: 'not_editable', message: `${describe(element)} does not accept text` };
}

export function focusForTyping(
  args: PageOps['focusForTyping']['args'],
  state: RefState,
): PageOps['focusForTyping']['result'] {
  const element = editableTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!fullyInViewport(element)) element.scrollIntoView({ block: 'center', behavior: 'instant' });
  if (isA(element, 'HTMLInputElement') && SET_DIRECTLY.has(element.type))
    return { ok: true, tag: element.localName, direct: true };
  armOwnInput(globalThis as unknown as Record<string, unknown>, Date.now(), args.guardMs);
  element.focus({ preventScroll: true });
  if (isA(element, 'HTMLInputElement') || isA(element, 'HTMLTextAreaElement')) {
    try {
      element.select();
    } catch {
      // Some input types (email, number) do not support selection; select() still works on them in Chrome.
    }
  } else {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  return { ok: true, tag: element.localName };
}

function setNativeValue(element: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = isA(element, 'HTMLTextAreaElement') ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
}

function pressEnter(element: Element): boolean {
  const init = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true, composed: true };
  const proceed = element.dispatchEvent(new KeyboardEvent('keydown', init));
  element.dispatchEvent(new KeyboardEvent('keypress', init));
  element.dispatchEvent(new KeyboardEvent('keyup', init));
  const form = (element as HTMLInputElement).form ?? element.closest('form');
  if (proceed && form) {
    form.requestSubmit();
    return true;
  }
  return false;
}

export function domInput(args: PageOps['domInput']['args'], state: RefState): PageOps['domInput']['result'] {
  const element = editableTarget(args.target, state);
  if (isFailure(element)) return element;
  element.focus({ preventScroll: true });
  if (isA(element, 'HTMLInputElement') || isA(element, 'HTMLTextAreaElement')) {
    setNativeValue(element, args.text);
    element.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: args.text }),
    );
    element.dispatchEvent(new Event('change', { bubbles: true }));
  } else {
    element.textContent = args.text;
    element.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: args.text }),
    );
  }
  const submitted = args.submit ? pressEnter(element) : false;
  return { ok: true, tag: element.localName, submitted };
}
