// The tool call for a form plan item: check / uncheck / toggle a control (also one operated
// through its label, like TodoMVC's hidden toggles) and choose an option of a <select> (or the
// radio button of that name). Whole-label matching only; an honest answer when nothing fits.
import type { PageContext, PageElement } from '../llm-types.ts';
import { clip } from './answers.ts';
import { labelOf, MATCH_SCORE, scoreLabel } from './element-match.ts';
import { pageName } from './page-summary.ts';
import type { PlannedAction } from './request-intent.ts';
import { wordsOf } from './request-text.ts';
import { TOOL } from './plan-steps.ts';

export type FormDecision =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; narration: string }
  | { kind: 'answer'; text: string };

const isToggle = (e: PageElement) => {
  const type = (e.type ?? '').toLowerCase();
  const role = (e.role ?? '').toLowerCase();
  return (
    type === 'checkbox' ||
    type === 'radio' ||
    role === 'checkbox' ||
    role === 'switch' ||
    role === 'radio' ||
    role === 'menuitemcheckbox'
  );
};
const isSelect = (e: PageElement) =>
  e.tag.toLowerCase() === 'select' || (['listbox', 'combobox'].includes((e.role ?? '').toLowerCase()) && !!e.options);

const bestBy = (elements: PageElement[], score: (e: PageElement) => number, min: number) => {
  let best: { element: PageElement; score: number } | undefined;
  for (const element of elements) {
    const s = score(element);
    if (s >= min && (!best || s > best.score)) best = { element, score: s };
  }
  return best;
};

const labelScore = (target: string) => (e: PageElement) =>
  Math.max(
    scoreLabel(target, e.label),
    scoreLabel(target, e.text),
    scoreLabel(target, e.value),
    0.9 * scoreLabel(target, e.name),
  );
const MIN = MATCH_SCORE.prefix - 15;

function checkCall(element: PageElement, want: 'on' | 'off' | 'toggle', how: string): FormDecision {
  const verb = want === 'on' ? 'checking' : want === 'off' ? 'unchecking' : 'toggling';
  const narration = `${verb} "${clip(labelOf(element), 60)}" (element ${element.clickId})${how}`;
  if (want === 'toggle' || !isToggle(element))
    return {
      kind: 'tool',
      name: TOOL.click,
      arguments: { clickId: element.clickId },
      narration: narration.replace(/^\w+/, 'clicking'),
    };
  return {
    kind: 'tool',
    name: 'browser_check',
    arguments: { clickId: element.clickId, checked: want === 'on' },
    narration,
  };
}

export function decideCheck(action: Extract<PlannedAction, { kind: 'check' }>, page: PageContext): FormDecision {
  const elements = page.elements;
  // 1. The whole request is itself a control's label ("Mark all as complete").
  const whole = bestBy(elements, labelScore(action.phrase), MATCH_SCORE.sameWords);
  if (whole) return checkCall(whole.element, isToggle(whole.element) ? action.want : 'toggle', '');
  // 1b. "mark all as complete", "check everything": the page's select-all control, whatever its
  // wording ("Toggle All Input", "Select all"): a checkbox whose own name has the word "all".
  if (/^(?:all|everything|every\s+\w+|all\s+(?:the\s+)?\w+)$/i.test(action.target)) {
    const selectAll = elements.find(
      (e) =>
        isToggle(e) &&
        (e.type ?? '').toLowerCase() !== 'radio' &&
        wordsOf(`${e.label ?? ''} ${e.text ?? ''}`).some((w) => w === 'all' || w === 'everything'),
    );
    if (selectAll) return checkCall(selectAll, action.want, ' (the select-all control)');
  }
  // 2. A checkbox, radio or switch named like the target.
  const toggles = elements.filter(isToggle);
  const own = bestBy(toggles, labelScore(action.target), MIN);
  if (own) return checkCall(own.element, action.want, '');
  // 3. An element showing the target (a todo's title) next to an unnamed control: that control.
  // Only a plain text holder (a label, a list item), named exactly: a link or button named "All" is
  // a control of its own, never the name of the checkbox beside it.
  const holders = elements.filter(
    (e) =>
      !isToggle(e) &&
      !['a', 'button', 'input', 'select', 'textarea', 'summary', 'option'].includes(e.tag.toLowerCase()) &&
      !['link', 'button', 'tab', 'menuitem'].includes((e.role ?? '').toLowerCase()),
  );
  const shown = bestBy(holders, labelScore(action.target), MATCH_SCORE.sameWords);
  if (shown) {
    const index = elements.indexOf(shown.element);
    // A checkbox's `text` is its value ("on"); only a label of its own can say it belongs elsewhere.
    const near = [elements[index - 1], elements[index + 1], elements[index - 2]].find(
      (e) => e && isToggle(e) && (!e.label || scoreLabel(action.target, e.label) > 0),
    );
    if (near) return checkCall(near, action.want, ` next to "${clip(labelOf(shown.element), 40)}"`);
    if (shown.element.tag.toLowerCase() === 'label') return checkCall(shown.element, 'toggle', ' (its label)');
  }
  const listed =
    toggles
      .slice(0, 12)
      .map((e) => `"${clip(labelOf(e), 40)}"`)
      .join(', ') || 'none';
  return {
    kind: 'answer',
    text: `I could not find a checkbox, radio button or switch for "${action.target}" on ${pageName(page)}. Controls I can see: ${listed}.`,
  };
}

/** The field's words inside a label ("maximum house price" in "Choose a maximum house price:"). */
const fieldLike = (field: string, label: string | undefined) => {
  const want = wordsOf(field).join(' ');
  const have = wordsOf(label ?? '').join(' ');
  return want && have && ` ${have} `.includes(` ${want} `) ? 60 : scoreLabel(field, label);
};

const optionMatches = (option: { value: string; label: string }, wanted: string) =>
  option.value.toLowerCase() === wanted.toLowerCase() || scoreLabel(wanted, option.label) >= MATCH_SCORE.sameWords;

export function decideSelect(action: Extract<PlannedAction, { kind: 'select' }>, page: PageContext): FormDecision {
  const selects = page.elements.filter(isSelect);
  let chosen: PageElement | undefined;
  if (action.field)
    chosen = bestBy(
      selects,
      (e) =>
        Math.max(
          labelScore(action.field!)(e),
          wordsOf(`${e.label ?? ''} ${e.text ?? ''} ${e.name ?? ''}`).includes(wordsOf(action.field!)[0] ?? '\u0000')
            ? 55
            : 0,
        ),
      55,
    )?.element;
  chosen ??= selects.find((e) => e.options?.some((o) => optionMatches(o, action.option)));
  if (!chosen && selects.length === 1) chosen = selects[0];
  if (chosen) {
    const option = chosen.options?.find((o) => optionMatches(o, action.option));
    const radio =
      chosen.options && !option && !action.field
        ? bestBy(page.elements.filter(isToggle), labelScore(action.option), MIN)
        : undefined;
    if (radio) return checkCall(radio.element, 'on', '');
    if (chosen.options && !option) {
      const labels = chosen.options
        .slice(0, 15)
        .map((o) => `"${o.label}"`)
        .join(', ');
      return {
        kind: 'answer',
        text: `"${clip(labelOf(chosen), 40)}" (element ${chosen.clickId}) has no option "${action.option}". Its options: ${labels}.`,
      };
    }
    if (option?.disabled)
      return {
        kind: 'answer',
        text: `the option "${option.label}" of "${clip(labelOf(chosen), 40)}" is disabled, so it cannot be chosen.`,
      };
    const value = option ? option.value : action.option;
    return {
      kind: 'tool',
      name: TOOL.select,
      arguments: { clickId: chosen.clickId, values: [value] },
      narration: `choosing "${clip(option?.label ?? action.option, 60)}" in "${clip(labelOf(chosen), 40)}" (element ${chosen.clickId})`,
    };
  }
  // "set the price to 300000": a range, number, date or colour input named like the field takes the value.
  if (action.field) {
    const valueInputs = page.elements.filter(
      (e) =>
        e.tag.toLowerCase() === 'input' &&
        /^(?:range|number|date|time|datetime-local|month|week|color)$/i.test(e.type ?? ''),
    );
    const input =
      bestBy(
        valueInputs,
        (e) =>
          Math.max(
            fieldLike(action.field!, e.label),
            fieldLike(action.field!, e.text),
            fieldLike(action.field!, e.name),
          ),
        55,
      ) ?? (valueInputs.length === 1 ? { element: valueInputs[0]!, score: 0 } : undefined);
    if (input) {
      return {
        kind: 'tool',
        name: TOOL.type,
        arguments: { clickId: input.element.clickId, text: action.option },
        narration: `typing "${clip(action.option, 60)}" into "${clip(labelOf(input.element), 40)}" (element ${input.element.clickId})`,
      };
    }
  }
  // No <select> holds it: a radio button (or checkbox) of that name is chosen by checking it.
  const radio = bestBy(page.elements.filter(isToggle), labelScore(action.option), MIN);
  if (radio) return checkCall(radio.element, 'on', '');
  const what = selects.length
    ? `none of the ${selects.length} select(s) lists "${action.option}"`
    : 'there is no select, radio button or checkbox for it';
  return { kind: 'answer', text: `I could not choose "${action.option}" on ${pageName(page)}: ${what}.` };
}
