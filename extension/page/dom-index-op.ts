// browser_dom_index in the page: number the interactive elements in scope with `attr`
// (default data-mimo_click_id), starting at the id the background hands out, after clearing
// the previous generation's numbers so an old id can never point at a new element.
// Visually hidden checkboxes and radios that a user operates through their label (or through
// their own transparent box) are listed too, marked `hiddenControl`; a label whose control is
// listed is not listed again.
import { bboxOf, collapse, INTERACTIVE_SELECTOR, listedAs, textOf, xpathOf } from './element-lookup.ts';
import type { IndexedElement, PageOps, RefGeneration } from './page-ops.ts';
import { isA } from './realm.ts';

export const MAX_INDEXED_ELEMENTS = 1_000;
const MAX_OPTIONS = 50;

export function domIndex(
  args: PageOps['domIndex']['args'],
  state: { docToken: string; current: RefGeneration | null },
): PageOps['domIndex']['result'] {
  for (const attr of new Set([args.attr, state.current?.attr].filter((a): a is string => !!a))) {
    for (const old of Array.from(document.querySelectorAll(`[${CSS.escape(attr)}]`))) old.removeAttribute(attr);
  }
  const candidates: Array<{ element: Element; hidden: boolean }> = [];
  const listed = new Set<Element>();
  for (const element of Array.from(document.querySelectorAll(INTERACTIVE_SELECTOR))) {
    if (element.closest('[data-mimo-overlay]')) continue;
    const as = listedAs(element, args.scope);
    if (!as) continue;
    candidates.push({ element, hidden: as === 'hidden' });
    listed.add(element);
  }
  const elements: IndexedElement[] = [];
  let truncated = false;
  let next = args.firstId;
  for (const { element, hidden } of candidates) {
    // A label is only worth a ref of its own when its control is not listed (TodoMVC's todo
    // titles have no control and take a double-click; "Small" next to its radio is the radio).
    if (isA(element, 'HTMLLabelElement')) {
      const control = element.control;
      if (control && listed.has(control)) continue;
      if (!control && !textOf(element)) continue;
    }
    if (elements.length >= MAX_INDEXED_ELEMENTS) {
      truncated = true;
      break;
    }
    const clickId = next++;
    element.setAttribute(args.attr, String(clickId));
    const entry: IndexedElement = { clickId, tag: element.localName, xpath: xpathOf(element), bbox: bboxOf(element) };
    const text = textOf(element);
    if (text) entry.text = text;
    describe(element, entry);
    if (hidden) entry.hiddenControl = true;
    elements.push(entry);
  }
  const lastId = Math.max(args.firstId, next - 1);
  state.current = { docToken: state.docToken, attr: args.attr, firstId: args.firstId, lastId };
  return { ok: true, elements, docToken: state.docToken, lastId, truncated };
}

const MAX_ATTRIBUTE_CHARS = 200;
const clip = (value: string) => (value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value);
/** Input types whose value is a setting, not something a person typed (never a secret). */
const SETTING_TYPES = new Set([
  'range',
  'color',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'checkbox',
  'radio',
]);

/**
 * What a planner needs to choose a target without seeing the page: role, input type, name,
 * label (label[for], a wrapping label, aria-label), placeholder, link href (absolute) and target,
 * and the state of controls (checked, selected options, range bounds). Never a text field's
 * value: it may be a password or personal data.
 */
function describe(element: Element, entry: IndexedElement): void {
  const attr = (name: string) => element.getAttribute(name)?.trim() || undefined;
  const role = attr('role');
  if (role) entry.role = clip(role);
  const type = isA(element, 'HTMLInputElement') || isA(element, 'HTMLButtonElement') ? element.type : undefined;
  if (type) entry.type = type;
  const name = attr('name');
  if (name) entry.name = clip(name);
  const placeholder = attr('placeholder');
  if (placeholder) entry.placeholder = clip(placeholder);
  const label = labelOf(element);
  if (label) entry.label = clip(label);
  if (isA(element, 'HTMLAnchorElement') && element.href) {
    entry.href = clip(element.href);
    if (element.target) entry.target = element.target;
  }
  controlState(element, entry);
}

function controlState(element: Element, entry: IndexedElement): void {
  if (
    isA(element, 'HTMLInputElement') ||
    isA(element, 'HTMLSelectElement') ||
    isA(element, 'HTMLTextAreaElement') ||
    isA(element, 'HTMLButtonElement')
  ) {
    if (element.disabled) entry.disabled = true;
    if (!isA(element, 'HTMLButtonElement') && element.required) entry.required = true;
  }
  if (isA(element, 'HTMLInputElement')) {
    if (element.type === 'checkbox' || element.type === 'radio') entry.checked = element.checked;
    if (SETTING_TYPES.has(element.type) && element.type !== 'checkbox' && element.type !== 'radio')
      entry.value = clip(element.value);
    if (element.type === 'range' || element.type === 'number') {
      if (element.min) entry.min = element.min;
      if (element.max) entry.max = element.max;
      if (element.step) entry.step = element.step;
    }
  } else if (isA(element, 'HTMLSelectElement')) {
    if (element.multiple) entry.multiple = true;
    entry.options = Array.from(element.options)
      .slice(0, MAX_OPTIONS)
      .map((option) => {
        const info: NonNullable<IndexedElement['options']>[number] = {
          value: clip(option.value),
          label: clip(collapse(option.label || option.text)),
        };
        if (option.selected) info.selected = true;
        if (option.disabled || (isA(option.parentElement, 'HTMLOptGroupElement') && option.parentElement.disabled))
          info.disabled = true;
        return info;
      });
    const selected = Array.from(element.selectedOptions, (o) => o.value);
    if (selected.length > 0) entry.value = clip(selected.join(', '));
  } else {
    const ariaChecked = element.getAttribute('aria-checked');
    if (ariaChecked === 'true' || ariaChecked === 'false') entry.checked = ariaChecked === 'true';
  }
}

function labelOf(element: Element): string | undefined {
  const aria = element.getAttribute('aria-label')?.trim();
  if (aria) return aria;
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' ')
      .trim();
    if (text) return collapse(text);
  }
  const labels = (element as HTMLInputElement).labels;
  const text =
    labels && labels.length > 0
      ? Array.from(labels, (l) => collapse(l.textContent))
          .join(' ')
          .trim()
      : '';
  if (text) return text;
  // A checkbox or radio with no label of its own (TodoMVC's toggles) is named by its row.
  if (isA(element, 'HTMLInputElement') && (element.type === 'checkbox' || element.type === 'radio'))
    return rowText(element);
  return undefined;
}

/** The text of the nearest ancestor (up to 3 levels) that has some: the row the control sits in. */
function rowText(element: Element): string | undefined {
  let node = element.parentElement;
  for (let depth = 0; node && depth < 3; depth++, node = node.parentElement) {
    const text = collapse((node as HTMLElement).innerText ?? node.textContent, 100);
    if (text) return text;
  }
  return undefined;
}
