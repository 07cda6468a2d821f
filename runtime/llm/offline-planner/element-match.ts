// Finding the element a request means among the page's indexed elements (dom index), by what a
// person sees: visible text, label, placeholder, name, value. Scores are simple and explainable.
import type { PageElement } from '../llm-types.ts';
import { keywordsOf, wordsOf } from './request-text.ts';

export interface ElementMatch {
  element: PageElement;
  /** How many elements matched equally well (e.g. five "Add to cart" buttons). */
  ties: number;
}

const norm = (text: string | undefined) => wordsOf(text ?? '').join(' ');

/** The visible name of an element, for messages and matching. */
export function labelOf(element: PageElement): string {
  return (
    element.label ||
    element.text ||
    element.value ||
    element.placeholder ||
    element.name ||
    element.href ||
    `${element.tag} #${element.clickId}`
  ).trim();
}

/** How a target matched a label, best first. A shared word alone never matches. */
export const MATCH_SCORE = { exact: 100, sameWords: 90, prefix: 70 } as const;

/**
 * Whole-label matching: exact (case, punctuation and spacing aside) > the same content words
 * ("the Clear completed button" and "Clear completed") > the label starts with the target's words
 * ("Add to cart" and "Add to cart - $5"). "All" does not match "Mark all as complete".
 */
export function scoreLabel(target: string, label: string | undefined): number {
  const t = norm(target);
  const l = norm(label);
  if (!t || !l) return 0;
  if (t === l) return MATCH_SCORE.exact;
  const want = keywordsOf(target);
  const have = keywordsOf(label ?? '');
  if (
    want.length > 0 &&
    want.length === new Set(have).size &&
    new Set(want).size === want.length &&
    want.every((w) => have.includes(w))
  )
    return MATCH_SCORE.sameWords;
  if (l.startsWith(`${t} `)) {
    const extra = l.split(' ').length - t.split(' ').length;
    return MATCH_SCORE.prefix - Math.min(15, extra * 2);
  }
  return 0;
}

/**
 * For text fields only: a field is named by a noun ("the name field" is "Your name"), so all the
 * hint's words inside the label also count, below the whole-label matches.
 */
function fieldScore(hint: string, label: string | undefined): number {
  const whole = scoreLabel(hint, label);
  if (whole > 0) return whole;
  const t = norm(hint);
  const l = norm(label);
  return t && l && ` ${l} `.includes(` ${t} `) ? 55 : 0;
}

const CLICKABLE_TAGS = new Set(['a', 'button', 'input', 'summary', 'select', 'label', 'option']);

/**
 * The element whose visible text best matches `target`. `ordinal` picks among equally good
 * matches (1-based, -1 = last); otherwise the first in document order (lowest clickId).
 */
export function findClickTarget(elements: PageElement[], target: string, ordinal?: number): ElementMatch | undefined {
  const scored = elements
    .map((element) => {
      const score = Math.max(
        scoreLabel(target, element.label),
        scoreLabel(target, element.text),
        scoreLabel(target, element.value),
        0.9 * scoreLabel(target, element.name),
        0.8 * scoreLabel(target, element.placeholder),
      );
      const bonus =
        CLICKABLE_TAGS.has(element.tag.toLowerCase()) || element.role === 'button' || element.role === 'link' ? 1 : 0;
      return { element, score: score > 0 ? score + bonus : 0 };
    })
    .filter((s) => s.score >= MATCH_SCORE.prefix - 15);
  return pick(scored, ordinal);
}

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'tel', 'url', 'password', 'number']);

export function isTextField(element: PageElement): boolean {
  const tag = element.tag.toLowerCase();
  if (tag === 'textarea') return true;
  if (tag === 'input') return TEXT_INPUT_TYPES.has((element.type ?? '').toLowerCase());
  return element.role === 'textbox' || element.role === 'searchbox' || element.role === 'combobox';
}

/** The text of a `label` element indexed right before `index` (the dom index lists labels too). */
function precedingLabel(elements: PageElement[], index: number): string | undefined {
  const before = elements[index - 1];
  return before && before.tag.toLowerCase() === 'label' ? before.text : undefined;
}

/**
 * The text field a request means: by its label (its own text or a label element just before
 * it), name, placeholder or type ("name", "email", "search"). Without a hint, the first text
 * field. With a hint nothing matches, the only text field of the page if there is exactly one.
 */
export function findTextField(elements: PageElement[], hint: string | undefined): ElementMatch | undefined {
  const fields = elements.map((element, index) => ({ element, index })).filter(({ element }) => isTextField(element));
  if (fields.length === 0) return undefined;
  if (!hint) return { element: fields[0]!.element, ties: fields.length };
  const hintWords = norm(hint).split(' ');
  const wantsEmail = hintWords.some((w) => w === 'email' || w === 'mail' || w === 'e');
  const wantsSearch = hintWords.includes('search');
  const scored = fields.map(({ element, index }) => {
    const type = (element.type ?? '').toLowerCase();
    const typeScore = type && hintWords.includes(type) ? 90 : 0;
    const roleScore = wantsSearch && (element.role === 'searchbox' || type === 'search') ? 95 : 0;
    // The dom index shows an empty input by its placeholder, e.g. "you@example.com".
    const emailScore = wantsEmail && (element.text ?? element.placeholder ?? '').includes('@') ? 80 : 0;
    const score = Math.max(
      fieldScore(hint, element.label),
      fieldScore(hint, element.text),
      fieldScore(hint, precedingLabel(elements, index)),
      fieldScore(hint, element.name),
      fieldScore(hint, element.placeholder),
      0.9 * fieldScore(hint, element.value),
      typeScore,
      roleScore,
      emailScore,
    );
    return { element, score };
  });
  const best = pick(scored.filter((s) => s.score >= 40));
  if (best) return best;
  return fields.length === 1 ? { element: fields[0]!.element, ties: 1 } : undefined;
}

const NEW_TAB_WORDING = /\b(?:new|another|separate)\s+(?:tab|window)\b|\bopens?\s+in\b/i;

/**
 * Links that open a new tab: target=_blank when the dom index reports it, and links whose
 * text says so ("Open the article in a new tab"); the best match for `hint` first.
 */
export function findNewTabLink(elements: PageElement[], hint: string | undefined): ElementMatch | undefined {
  const links = elements.filter(
    (e) =>
      (e.target ?? '').toLowerCase() === '_blank' ||
      (e.tag.toLowerCase() === 'a' && NEW_TAB_WORDING.test(e.text ?? '')),
  );
  if (links.length === 0) return undefined;
  if (!hint) return { element: links[0]!, ties: links.length };
  const scored = links.map((element) => ({
    element,
    score: Math.max(scoreLabel(hint, element.text), 0.8 * scoreLabel(hint, element.href)),
  }));
  return pick(scored.filter((s) => s.score >= 25)) ?? { element: links[0]!, ties: links.length };
}

function pick(scored: Array<{ element: PageElement; score: number }>, ordinal?: number): ElementMatch | undefined {
  if (scored.length === 0) return undefined;
  const top = Math.max(...scored.map((s) => s.score));
  const best = scored.filter((s) => s.score >= top - 0.5).sort((a, b) => a.element.clickId - b.element.clickId);
  const index = ordinal === undefined ? 0 : ordinal === -1 ? best.length - 1 : ordinal - 1;
  const chosen = best[index];
  if (!chosen) return undefined; // "the third button" when there are two
  return { element: chosen.element, ties: best.length };
}
