// An extractive summary of a page from its readability text: the title, the opening sentences
// and the first sentence of the following paragraphs as key points, plus section headings.
// Nothing is invented: every sentence is taken from the page.
import type { PageContext } from '../llm-types.ts';
import { labelOf } from './element-match.ts';

export interface PageSummary {
  title: string;
  opening: string[];
  keyPoints: string[];
  sections: string[];
}

const SENTENCE_END = /(?<=[.!?])["”’)]?\s+(?=["“‘(]?[\p{Lu}\p{N}])/u;

export function splitSentences(paragraph: string): string[] {
  return paragraph
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter(Boolean);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A line of readable text without its Markdown marks (heading, list, quote, emphasis; table pipes become separators). */
function plainLine(line: string): string {
  const trimmed = line.trim();
  if (/^\|?\s*:?-{2,}/.test(trimmed) && /^[|\s:-]+$/.test(trimmed)) return '';
  const row = /^\|(.*)\|$/.exec(trimmed);
  const body = row
    ? row[1]!
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean)
        .join(' · ')
    : trimmed;
  return body
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/^>\s?/, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lines of the text, whitespace-normalised and without Markdown marks; table-like cells stay on their line. */
function linesOf(text: string): string[] {
  return text.replace(/\r/g, '').split(/\n+/).map(plainLine).filter(Boolean);
}

export function summarizePage(
  page: PageContext,
  options: { openingSentences?: number; keyPoints?: number } = {},
): PageSummary {
  const title = (page.title ?? '').trim();
  const lines = linesOf(page.text ?? '').filter((line) => line !== title);
  const isProse = (line: string) => wordCount(line) >= 8 && /[.!?]["”’)]?$/.test(line);
  const isHeading = (line: string) =>
    wordCount(line) <= 8 && line.length <= 70 && !/[.!?:;,]$/.test(line) && /^[\p{Lu}\p{N}]/u.test(line);
  const prose = lines.filter(isProse);
  const firstProse = prose[0];
  const opening = firstProse ? splitSentences(firstProse).slice(0, options.openingSentences ?? 2) : [];
  const keyPoints = prose
    .slice(1)
    .filter((p) => wordCount(p) >= 12) // paragraphs, not list items
    .map((p) => splitSentences(p)[0] ?? p)
    .slice(0, options.keyPoints ?? 4);
  const firstProseIndex = firstProse ? lines.indexOf(firstProse) : -1;
  const sections = lines
    .filter((line, index) => index > firstProseIndex && firstProseIndex >= 0 && isHeading(line))
    .slice(0, 8);
  if (opening.length === 0) {
    // No prose: fall back to the first lines of text, then to what can be clicked.
    const fallback = lines.slice(0, 3).map((l) => clip(l, 200));
    if (fallback.length > 0) return { title, opening: fallback, keyPoints: [], sections: [] };
  }
  return { title, opening, keyPoints, sections };
}

/** "Title" (url), or whichever of the two is known. */
export function pageName(page: PageContext): string {
  const title = page.title?.trim();
  if (title && page.url) return `"${title}" (${page.url})`;
  return title ? `"${title}"` : page.url || 'the page';
}

export function formatSummary(page: PageContext): string {
  const summary = summarizePage(page);
  const out: string[] = [`Summary of ${pageName(page)}, taken from the page's own text:`, ''];
  if (summary.opening.length > 0) out.push(summary.opening.join(' '));
  else {
    const labels = page.elements.slice(0, 8).map(labelOf);
    out.push(
      labels.length > 0
        ? `The page has no readable text. It shows these elements: ${labels.join(', ')}.`
        : 'The page has no readable text and no interactive elements.',
    );
  }
  if (summary.keyPoints.length > 0) {
    out.push('', 'Key points:');
    for (const point of summary.keyPoints) out.push(`- ${point}`);
  }
  if (summary.sections.length > 0) out.push('', `Sections: ${summary.sections.join('; ')}.`);
  out.push(...pageNotes(page));
  return out.join('\n');
}

/** Honest notes about what the page context lacked. */
export function pageNotes(page: PageContext): string[] {
  const notes: string[] = [];
  if (page.truncated) notes.push('Note: the page text was truncated, so later parts of the page are not covered.');
  if (page.missing?.length) notes.push(`Note: page preparation could not get: ${page.missing.join(', ')}.`);
  return notes.length ? ['', ...notes] : [];
}

/** A short excerpt of the page text (first lines up to ~`max` characters), for action reports. */
export function pageExcerpt(page: PageContext, max = 240): string {
  const title = (page.title ?? '').trim();
  const text = linesOf(page.text ?? '')
    .filter((l) => l !== title)
    .join(' ');
  return clip(text, max);
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > max * 0.6 ? space : max)}…`;
}
