// Page operations for form controls beyond click and type: choose <select> options by value or
// label (input + change, as a user's choice fires them), read a checkbox's state, focus, the DOM
// fallbacks of hover / double-click / key presses, and the fields a form refuses on submit.
import { armOwnInput } from '../shared/own-input-guard.ts';
import { collapse, resolveTarget, textOf } from './element-lookup.ts';
import type { InvalidFieldInfo, PageOpFailure, PageOps, RefGeneration, TargetSpec } from './page-ops.ts';
import { isA } from './realm.ts';

type RefState = { docToken: string; current: RefGeneration | null };

function isFailure(value: Element | PageOpFailure): value is PageOpFailure {
  return (value as PageOpFailure).ok === false; // not instanceof: an element of a same-origin frame is of another realm
}

function describe(element: Element): string {
  return `${element.localName}${element.id ? `#${element.id}` : ''}`;
}

const norm = (text: string) => collapse(text, 10_000).toLowerCase();

/** The option a requested string names: exact value, exact label, then label ignoring case and spacing. */
function findOption(options: HTMLOptionElement[], wanted: string): HTMLOptionElement | undefined {
  return (
    options.find((o) => o.value === wanted) ??
    options.find((o) => (o.label || o.text) === wanted) ??
    options.find((o) => norm(o.label || o.text) === norm(wanted)) ??
    options.find((o) => norm(o.value) === norm(wanted))
  );
}

function optionDisabled(option: HTMLOptionElement): boolean {
  return option.disabled || (isA(option.parentElement, 'HTMLOptGroupElement') && option.parentElement.disabled);
}

/** A <select>, or the select a label names. */
function selectOf(element: Element): HTMLSelectElement | null {
  if (isA(element, 'HTMLSelectElement')) return element;
  if (isA(element, 'HTMLLabelElement') && isA(element.control, 'HTMLSelectElement')) return element.control;
  return null;
}

export function selectOptions(
  args: PageOps['selectOptions']['args'],
  state: RefState,
): PageOps['selectOptions']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  const select = selectOf(element);
  if (!select)
    return {
      ok: false,
      reason: 'not_editable',
      message: `${describe(element)} is not a <select>; select chooses options of a <select> element`,
    };
  if (select.disabled) return { ok: false, reason: 'not_editable', message: `${describe(select)} is disabled` };
  if (!select.multiple && args.values.length !== 1) {
    return {
      ok: false,
      reason: 'not_editable',
      message: `${describe(select)} takes exactly one option (it is not a multiple select); got ${args.values.length}`,
    };
  }
  const options = Array.from(select.options);
  const chosen: HTMLOptionElement[] = [];
  for (const wanted of args.values) {
    const option = findOption(options, wanted);
    if (!option) {
      const available = options
        .map(
          (o) =>
            `${JSON.stringify(collapse(o.label || o.text, 60))}${o.value !== (o.label || o.text) ? ` (value ${JSON.stringify(o.value)})` : ''}`,
        )
        .slice(0, 30);
      return {
        ok: false,
        reason: 'not_found',
        message: `no option ${JSON.stringify(wanted)} in ${describe(select)}; options: ${available.join(', ')}`,
      };
    }
    if (optionDisabled(option))
      return {
        ok: false,
        reason: 'not_editable',
        message: `option ${JSON.stringify(collapse(option.label || option.text, 60))} of ${describe(select)} is disabled`,
      };
    chosen.push(option);
  }
  const before = options.map((o) => o.selected).join();
  select.focus({ preventScroll: true });
  for (const option of options) option.selected = chosen.includes(option);
  const changed = options.map((o) => o.selected).join() !== before;
  // A user's choice fires input then change (HTML "send select update notifications").
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  const selected = Array.from(select.selectedOptions);
  return {
    ok: true,
    selected: selected.map((o) => o.value),
    labels: selected.map((o) => collapse(o.label || o.text)),
    changed,
  };
}

export function reachable(args: PageOps['reachable']['args'], state: RefState): PageOps['reachable']['result'] {
  const element = resolveTarget(args.target, state);
  return isFailure(element) ? element : { ok: true };
}

export function checkState(args: PageOps['checkState']['args'], state: RefState): PageOps['checkState']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  const control = isA(element, 'HTMLLabelElement') && element.control ? element.control : element;
  if (isA(control, 'HTMLInputElement') && (control.type === 'checkbox' || control.type === 'radio')) {
    return { ok: true, checked: control.checked, kind: control.type };
  }
  const aria = control.getAttribute('aria-checked') ?? control.getAttribute('aria-pressed');
  const role = control.getAttribute('role') ?? '';
  if (aria === 'true' || aria === 'false' || aria === 'mixed')
    return { ok: true, checked: aria === 'true', kind: 'aria' };
  if (['checkbox', 'switch', 'radio', 'menuitemcheckbox'].includes(role))
    return { ok: true, checked: false, kind: 'aria' };
  return { ok: false, reason: 'not_editable', message: `${describe(control)} is not a checkbox, radio or switch` };
}

export function focus(args: PageOps['focus']['args'], state: RefState): PageOps['focus']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  if (!(isA(element, 'HTMLElement') || isA(element, 'SVGElement')))
    return { ok: false, reason: 'not_editable', message: `${describe(element)} cannot take the focus` };
  element.focus({ preventScroll: false });
  return { ok: true, focused: holdsFocus(element), tag: element.localName };
}

/**
 * Whether the focus is on the element or inside it, through shadow roots (a document's
 * activeElement is the shadow host; a custom element delegates its focus into its shadow root) in
 * the element's own document (a frame's).
 */
function holdsFocus(element: Element): boolean {
  let active = element.ownerDocument.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  for (let node: Node | null = active; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null)
    if (node === element) return true;
  return false;
}

export function domPointer(args: PageOps['domPointer']['args'], state: RefState): PageOps['domPointer']['result'] {
  const element = resolveTarget(args.target, state);
  if (isFailure(element)) return element;
  element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = element.getBoundingClientRect();
  const init = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2,
  };
  if (args.kind === 'hover') {
    element.dispatchEvent(new PointerEvent('pointerover', { ...init, pointerType: 'mouse' }));
    element.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false, pointerType: 'mouse' }));
    element.dispatchEvent(new MouseEvent('mouseover', init));
    element.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
    element.dispatchEvent(new PointerEvent('pointermove', { ...init, pointerType: 'mouse' }));
    element.dispatchEvent(new MouseEvent('mousemove', init));
    return { ok: true, tag: element.localName };
  }
  for (const detail of [1, 2]) {
    element.dispatchEvent(new MouseEvent('mousedown', { ...init, detail, buttons: 1 }));
    element.dispatchEvent(new MouseEvent('mouseup', { ...init, detail }));
    element.dispatchEvent(new MouseEvent('click', { ...init, detail }));
  }
  element.dispatchEvent(new MouseEvent('dblclick', { ...init, detail: 2 }));
  return { ok: true, tag: element.localName };
}

function focusTarget(target: TargetSpec | null, state: RefState): Element | PageOpFailure {
  if (target && (target.clickId !== undefined || target.xpath !== undefined)) {
    const element = resolveTarget(target, state);
    if (isFailure(element)) return element;
    if (isA(element, 'HTMLElement')) element.focus({ preventScroll: false });
    return element;
  }
  return document.activeElement ?? document.body ?? document.documentElement;
}

export function focusForKeys(
  args: PageOps['focusForKeys']['args'],
  state: RefState,
): PageOps['focusForKeys']['result'] {
  const element = focusTarget(args.target, state);
  if (isFailure(element)) return element;
  armOwnInput(globalThis as unknown as Record<string, unknown>, Date.now(), args.guardMs);
  return { ok: true, tag: element.localName, mac: /Mac/i.test(navigator.platform) };
}

export function domKey(args: PageOps['domKey']['args'], state: RefState): PageOps['domKey']['result'] {
  const element = focusTarget(args.target, state);
  if (isFailure(element)) return element;
  const { alt, ctrl, meta, shift } = args.modifiers;
  const init = {
    key: args.key,
    code: args.code,
    bubbles: true,
    cancelable: true,
    composed: true,
    altKey: alt,
    ctrlKey: ctrl,
    metaKey: meta,
    shiftKey: shift,
  };
  const proceed = element.dispatchEvent(new KeyboardEvent('keydown', init));
  if (proceed && args.text && !ctrl && !meta && !alt) {
    element.dispatchEvent(new KeyboardEvent('keypress', init));
    if (args.key === 'Enter') {
      const form = (element as HTMLInputElement).form ?? element.closest('form');
      if (form && isA(element, 'HTMLInputElement')) form.requestSubmit();
    } else if ((isA(element, 'HTMLInputElement') || isA(element, 'HTMLTextAreaElement')) && !element.readOnly) {
      element.setRangeText(
        args.text,
        element.selectionStart ?? element.value.length,
        element.selectionEnd ?? element.value.length,
        'end',
      );
      element.dispatchEvent(
        new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: args.text }),
      );
    }
  }
  element.dispatchEvent(new KeyboardEvent('keyup', init));
  return { ok: true, tag: element.localName };
}

/** The accessible-ish name of a form field, for a validation report. */
function fieldName(element: Element): string {
  const labels = (element as HTMLInputElement).labels;
  const label = labels && labels.length > 0 ? collapse(labels[0]!.textContent, 80) : '';
  return (
    label ||
    element.getAttribute('aria-label') ||
    element.getAttribute('name') ||
    element.id ||
    textOf(element) ||
    element.localName
  );
}

export function formValidity(
  args: PageOps['formValidity']['args'],
  state: RefState,
): PageOps['formValidity']['result'] {
  let element: Element | null = null;
  if (args.target) {
    const found = resolveTarget(args.target, state);
    if (!isFailure(found)) element = found;
  }
  element ??= document.activeElement;
  const form = element ? ((element as HTMLInputElement).form ?? element.closest('form')) : null;
  if (!form) return { ok: true, invalid: [] };
  const invalid: InvalidFieldInfo[] = [];
  for (const field of Array.from(form.elements)) {
    const control = field as HTMLInputElement;
    if (typeof control.checkValidity !== 'function' || control.willValidate === false || control.validity.valid)
      continue;
    const entry: InvalidFieldInfo = {
      field: fieldName(control),
      message: control.validationMessage || 'invalid value',
    };
    const id = args.attr ? Number(control.getAttribute(args.attr)) : NaN;
    if (Number.isInteger(id) && control.hasAttribute(args.attr!)) entry.clickId = id;
    invalid.push(entry);
    if (invalid.length >= 20) break;
  }
  return { ok: true, invalid };
}

export function documentState(state: RefState): PageOps['documentState']['result'] {
  const entry = performance.getEntriesByType('navigation')[0] as
    (PerformanceNavigationTiming & { responseStatus?: number }) | undefined;
  const result: PageOps['documentState']['result'] = {
    ok: true,
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    docToken: state.docToken,
  };
  if (entry && typeof entry.responseStatus === 'number' && entry.responseStatus > 0)
    result.httpStatus = entry.responseStatus;
  return result;
}
