// ARIA widgets by role: choosing an item of a menu, a listbox, a tree, a tab list or a
// calendar grid, opening the popup that holds it first when it is not shown yet, and expanding or
// collapsing a tree node or a disclosure. Read from the page model's roles, names and states
// (`expanded`, `selected`, `hasPopup`): the accessibility-tree model gives them; with the DOM
// fallback's entries (role from the attribute, no states) the same logic still finds items by
// role and name, and treats an unknown `expanded` as "not known" rather than "collapsed".
import type { PageContext, PageElement } from '../llm-types.ts';
import { clip } from './answers.ts';
import { labelOf, MATCH_SCORE, scoreLabel } from './element-match.ts';
import type { ToolStep } from './conversation.ts';
import { TOOL, isPrepStep } from './plan-steps.ts';

/** The ARIA states this module reads; optional on every entry (the DOM fallback has none). */
type WithStates = PageElement & {
  expanded?: boolean;
  selected?: boolean;
  hasPopup?: string;
  checked?: boolean | 'mixed';
};

export type WidgetDecision =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; narration: string; prep?: true }
  | { kind: 'answer'; text: string };

const ITEM_ROLES = new Set([
  'menuitem',
  'menuitemradio',
  'menuitemcheckbox',
  'option',
  'treeitem',
  'gridcell',
  'tab',
  'radio',
]);
const COMBO_ROLES = new Set(['combobox', 'listbox']);
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const roleOf = (e: PageElement) => (e.role ?? '').toLowerCase();
const states = (e: PageElement) => e as WithStates;
const nameScore = (target: string) => (e: PageElement) =>
  Math.max(scoreLabel(target, e.name), scoreLabel(target, e.label), scoreLabel(target, e.text));

function best(elements: PageElement[], score: (e: PageElement) => number, min: number): PageElement | undefined {
  let top: { e: PageElement; s: number } | undefined;
  for (const e of elements) {
    const s = score(e);
    if (s >= min && (!top || s > top.s)) top = { e, s };
  }
  return top?.e;
}

/** A control that opens a popup: aria-haspopup, a collapsed aria-expanded, or a combobox. */
export function isPopupTrigger(e: PageElement): boolean {
  const s = states(e);
  if (s.disabled) return false;
  if (s.hasPopup !== undefined && s.hasPopup !== 'false') return true;
  if (COMBO_ROLES.has(roleOf(e))) return true;
  return s.expanded === false && ['button', 'menuitem', 'combobox'].includes(roleOf(e));
}

/** "15 March 2024", "March 15", "2024-03-15": the day and, when given, the month (1-12). */
export function dateParts(text: string): { day: number; month?: number; year?: number } | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const words = text
    .toLowerCase()
    .replace(/(\d+)(?:st|nd|rd|th)\b/g, '$1')
    .replace(/[.,]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const month = words
    .map((w) => MONTHS.findIndex((m) => m === w || (w.length >= 3 && m.startsWith(w))))
    .find((i) => i >= 0);
  const numbers = words.filter((w) => /^\d+$/.test(w)).map(Number);
  const day = numbers.find((n) => n >= 1 && n <= 31);
  if (month === undefined || day === undefined) return null;
  const year = numbers.find((n) => n > 31);
  return { day, month: month + 1, ...(year !== undefined ? { year } : {}) };
}

/** A day of a calendar grid named with that day and month ("15 March", "Friday, March 15, 2024"). */
function findDay(elements: PageElement[], date: { day: number; month?: number }): PageElement | undefined {
  const monthName = date.month ? MONTHS[date.month - 1]! : undefined;
  const days = elements.filter((e) => {
    if (
      states(e).disabled ||
      !['gridcell', 'button', 'option'].includes(roleOf(e) || (e.tag.toLowerCase() === 'button' ? 'button' : ''))
    )
      return false;
    const words = labelOf(e).toLowerCase().replace(/[.,]/g, ' ').split(/\s+/);
    return (
      words.includes(String(date.day)) && (!monthName || words.some((w) => w.length >= 3 && monthName.startsWith(w)))
    );
  });
  // The button inside a grid cell and the cell itself may both be listed: either does.
  return days.find((e) => roleOf(e) === 'button' || e.tag.toLowerCase() === 'button') ?? days[0];
}

/** The month a calendar shows: the month named by most of the listed days ("15 March"). */
function monthShown(elements: PageElement[]): number | undefined {
  const counts = new Map<number, number>();
  for (const e of elements) {
    const words = labelOf(e).toLowerCase().replace(/[.,]/g, ' ').split(/\s+/);
    if (!words.some((w) => /^\d{1,2}$/.test(w))) continue;
    const month = MONTHS.findIndex((m) => words.includes(m));
    if (month >= 0) counts.set(month + 1, (counts.get(month + 1) ?? 0) + 1);
  }
  const [month, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return count !== undefined && count >= 7 ? month : undefined;
}

/** An open calendar on another month: its next / previous month button, toward the wanted month. */
function monthStep(elements: PageElement[], wanted: number): WidgetDecision | null {
  const shown = monthShown(elements);
  if (shown === undefined || shown === wanted) return null;
  const forward = (wanted - shown + 12) % 12 <= 6;
  const button = elements.find((e) =>
    (forward ? /\bnext\s+month\b/i : /\b(?:previous|prev)\s+month\b/i).test(labelOf(e)),
  );
  if (!button) return null;
  return {
    kind: 'tool',
    name: TOOL.click,
    arguments: { clickId: button.clickId },
    narration: `showing the ${forward ? 'next' : 'previous'} month ("${clip(labelOf(button), 40)}", element ${button.clickId}) to reach ${MONTHS[wanted - 1]}`,
    prep: true,
  };
}

/** The last step opened this very trigger already: opening it again would loop. */
function openedAlready(steps: ToolStep[], trigger: PageElement): boolean {
  const last = steps.at(-1);
  return !!last && isPrepStep(last) && last.arguments.clickId === trigger.clickId;
}

function openTrigger(trigger: PageElement, steps: ToolStep[], what: string): WidgetDecision | null {
  if (openedAlready(steps, trigger)) return null;
  return {
    kind: 'tool',
    name: TOOL.click,
    arguments: { clickId: trigger.clickId },
    narration: `opening "${clip(labelOf(trigger), 60)}" (element ${trigger.clickId}) to reach ${what}`,
    prep: true,
  };
}

/**
 * "choose X [in/from Y]" where X is an item of an ARIA widget: the item when it is shown; else
 * the combobox Y (browser_select opens it and chooses), or the popup trigger Y (a menu button,
 * a date field's calendar button) opened first. Null when the page has no such widget.
 */
export function decideWidgetChoice(
  option: string,
  field: string | undefined,
  page: PageContext,
  steps: ToolStep[],
): WidgetDecision | null {
  const elements = page.elements.filter((e) => !states(e).disabled);
  const date = dateParts(option);
  if (date) {
    const day = findDay(elements, date);
    if (day)
      return {
        kind: 'tool',
        name: TOOL.click,
        arguments: { clickId: day.clickId },
        narration: `choosing the day "${clip(labelOf(day), 60)}" (element ${day.clickId})`,
      };
    const step = date.month ? monthStep(elements, date.month) : null;
    if (step) return step;
  }
  const items = elements.filter((e) => ITEM_ROLES.has(roleOf(e)));
  const item = best(items, nameScore(option), MATCH_SCORE.prefix - 15);
  if (item)
    return {
      kind: 'tool',
      name: TOOL.click,
      arguments: { clickId: item.clickId },
      narration: `choosing "${clip(labelOf(item), 60)}" (${roleOf(item)}, element ${item.clickId})`,
    };

  const triggers = elements.filter(isPopupTrigger);
  // A menu button whose popup state sits on a wrapper (a web component's host) shows no hasPopup
  // of its own: named by the request ("from the View menu"), a button or menu item will do.
  const named = field
    ? (best(triggers, nameScore(field), MATCH_SCORE.prefix - 15) ??
      best(
        elements.filter((e) => ['button', 'menuitem'].includes(roleOf(e))),
        nameScore(field),
        MATCH_SCORE.sameWords,
      ))
    : undefined;
  const calendar = date
    ? (triggers.find((e) => /\b(?:date|calendar)\b/i.test(labelOf(e))) ??
      elements.find((e) => /\b(?:choose|pick|select|open)\b.*\bdate\b|\bcalendar\b/i.test(labelOf(e))))
    : undefined;
  const trigger = named ?? calendar ?? (triggers.length === 1 ? triggers[0] : undefined);
  if (!trigger) return null;
  if (COMBO_ROLES.has(roleOf(trigger)) && !date) {
    return {
      kind: 'tool',
      name: TOOL.select,
      arguments: { clickId: trigger.clickId, values: [option] },
      narration: `choosing "${clip(option, 60)}" in "${clip(labelOf(trigger), 40)}" (${roleOf(trigger)}, element ${trigger.clickId})`,
    };
  }
  return openTrigger(trigger, steps, `"${clip(option, 40)}"`);
}

/** "expand X" / "collapse X": a tree item by the keyboard (ArrowRight / ArrowLeft), anything else with aria-expanded by a click. */
export function decideExpand(target: string, want: 'open' | 'close', page: PageContext): WidgetDecision {
  const candidates = page.elements.filter(
    (e) =>
      !states(e).disabled &&
      (roleOf(e) === 'treeitem' ||
        states(e).expanded !== undefined ||
        isPopupTrigger(e) ||
        ['button', 'summary'].includes(roleOf(e) || e.tag.toLowerCase())),
  );
  const found = best(candidates, nameScore(target), MATCH_SCORE.prefix - 15);
  const verb = want === 'open' ? 'expand' : 'collapse';
  if (!found) return { kind: 'answer', text: `I could not find "${target}" to ${verb} on this page.` };
  const expanded = states(found).expanded;
  if (expanded === (want === 'open'))
    return {
      kind: 'answer',
      text: `"${clip(labelOf(found), 60)}" is already ${want === 'open' ? 'expanded' : 'collapsed'}.`,
    };
  const label = `"${clip(labelOf(found), 60)}" (element ${found.clickId})`;
  if (roleOf(found) === 'treeitem') {
    // A click on a tree item selects it (and toggles it only on some trees): the keys expand or collapse on every APG tree.
    return {
      kind: 'tool',
      name: TOOL.press,
      arguments: { clickId: found.clickId, key: want === 'open' ? 'ArrowRight' : 'ArrowLeft' },
      narration: `${want === 'open' ? 'expanding' : 'collapsing'} the tree item ${label}`,
    };
  }
  return {
    kind: 'tool',
    name: TOOL.click,
    arguments: { clickId: found.clickId },
    narration: `clicking ${label} to ${verb} it`,
  };
}
