// Target-based page operations: locate (scroll into view, centre point) for CDP input, and the
// DOM fallbacks dom_click / dom_input of seed 000 §4.6.
import { armOwnInput } from '../shared/own-input-guard.ts';
import { inViewport, resolveTarget } from './element-lookup.ts';
import type { PageOpFailure, PageOps, RefGeneration, TargetSpec } from './page-ops.ts';

type RefState = { docToken: string; current: RefGeneration | null };

function isFailure(value: Element | PageOpFailure): value is PageOpFailure {
  return !(value instanceof Element);
}

function fullyInViewport(element: Element): boolean {
  const r = element.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
}

function describe(element: Element): string {
  const id = element.id ? `#${element.id}` : '';
  return `${element.localName}${id}`;
}

export function locate(args: PageOps['locate']['args'], state: RefState): PageOps['locate']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!fullyInViewport(element)) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = element.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0 || !inViewport(element)) {
    return { ok: false, reason: 'not_visible', message: `${describe(element)} has no visible box to click` };
  }
  // The background dispatches CDP input at this point next: not the user's input.
  armOwnInput(globalThis as unknown as Record<string, unknown>, Date.now());
  const x = Math.round((r.left + r.right) / 2);
  const y = Math.round((r.top + r.bottom) / 2);
  if (args.focus && element instanceof HTMLElement) element.focus({ preventScroll: true });
  const hit = document.elementFromPoint(x, y);
  const link = element.closest('a[href]');
  const newContext = (target: string) => target !== '' && !['_self', '_parent', '_top'].includes(target.toLowerCase());
  // A submit button of a form that targets a new tab opens one too (formtarget wins over target).
  const submitter = element.closest('button, input[type=submit], input[type=image]') as HTMLButtonElement | HTMLInputElement | null;
  const submits = submitter !== null && submitter.form !== null && submitter.type !== 'button' && submitter.type !== 'reset';
  const opensNewTab =
    (link !== null && newContext(link.getAttribute('target') ?? '') && !link.hasAttribute('download')) ||
    (submits && newContext(submitter!.getAttribute('formtarget') ?? submitter!.form!.getAttribute('target') ?? ''));
  const mac = /Mac/i.test(navigator.platform);
  const result: PageOps['locate']['result'] = { ok: true, x, y, tag: element.localName, opensNewTab, mac };
  if (hit && hit !== element && !element.contains(hit) && !hit.contains(element)) result.obscuredBy = describe(hit);
  return result;
}

export function domClick(args: PageOps['domClick']['args'], state: RefState): PageOps['domClick']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!fullyInViewport(element)) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = element.getBoundingClientRect();
  const init = { bubbles: true, cancelable: true, composed: true, view: window, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, button: 0 };
  element.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }));
  if (element instanceof HTMLElement) element.focus({ preventScroll: true });
  element.dispatchEvent(new PointerEvent('pointerup', { ...init, pointerType: 'mouse', isPrimary: true }));
  element.dispatchEvent(new MouseEvent('mouseup', init));
  if (element instanceof HTMLElement) element.click();
  else element.dispatchEvent(new MouseEvent('click', init));
  return { ok: true, tag: element.localName };
}

type Editable = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

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
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    if (element.disabled || element.readOnly) return { ok: false, reason: 'not_editable', message: `${describe(element)} is disabled or read-only` };
    return element;
  }
  if (element instanceof HTMLElement && element.isContentEditable) return element;
  return { ok: false, reason: 'not_editable', message: `${describe(element)} does not accept text` };
}

export function focusForTyping(args: PageOps['focusForTyping']['args'], state: RefState): PageOps['focusForTyping']['result'] {
  const element = editableTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!fullyInViewport(element)) element.scrollIntoView({ block: 'center', behavior: 'instant' });
  armOwnInput(globalThis as unknown as Record<string, unknown>, Date.now(), args.guardMs);
  element.focus({ preventScroll: true });
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
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
  const proto = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
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
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    setNativeValue(element, args.text);
    element.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: args.text }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  } else {
    element.textContent = args.text;
    element.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: args.text }));
  }
  const submitted = args.submit ? pressEnter(element) : false;
  return { ok: true, tag: element.localName, submitted };
}
