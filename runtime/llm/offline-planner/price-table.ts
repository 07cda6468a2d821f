// Name/price pairs found in a page's text (readability) or, failing that, in its elements,
// rendered as a Markdown table. Prices like `$12.99`, `12,99 €`, `EUR 5`, `£3`, `1,299.00 USD`;
// the name is the text just before each price, minus button labels and column headers.
import type { PageContext } from '../llm-types.ts';
import { labelOf } from './element-match.ts';

export interface PriceRow {
  name: string;
  price: string;
}

const SYM = '[$€£¥₹₩]';
const CODE = '(?:USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|RMB|INR|SEK|NOK|DKK|PLN|CZK)';
const NUM = String.raw`\d{1,3}(?:[.,'\u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const PRICE = new RegExp(
  [
    `(?:US|CA|AU|NZ|HK|S)?${SYM}\\s?(?:${NUM})`,
    `(?<![\\d.,])(?:${NUM})\\s?${SYM}(?!\\s?\\d)`,
    `\\b${CODE}\\s?(?:${NUM})`,
    `(?<![\\d.,])(?:${NUM})\\s?${CODE}\\b`,
  ].join('|'),
  'g',
);

export function findPrices(text: string): Array<{ price: string; index: number; end: number }> {
  return [...text.matchAll(PRICE)].map((m) => ({
    price: m[0].replace(/\s+/g, ' ').trim(),
    index: m.index,
    end: m.index + m[0].length,
  }));
}

const TRAILING_FILLER = /(?:\s*[:\-–—|•·,(]|\s+(?:only|from|for|at|price|now|just|was|is|costs?))+\s*$/i;
const HEADER_WORD = /^(?:.*\s)?(?:price|prices|cost|amount)\s+(?=\S)/i;

function nameFromSegment(segment: string, noise: string[]): string {
  const pieces = segment
    .split(/\n|\t|\s{2,}|\s[|•·–—]\s|\|/)
    .map((p) => p.trim())
    .filter((p) => p && /[\p{L}\p{N}]/u.test(p) && !noise.includes(p.toLowerCase()));
  let name = pieces.at(-1) ?? '';
  for (const label of noise) {
    if (name.toLowerCase().startsWith(`${label} `)) name = name.slice(label.length).trim();
  }
  name = name
    .replace(HEADER_WORD, '')
    .replace(TRAILING_FILLER, '')
    .replace(/^(?:(?:and|or|then|also|plus)\s+|[,;:\-–—]\s*)+/i, '')
    .trim();
  if (name.split(/\s+/).length > 10) {
    const lastSentence = name.split(/[.!?]\s+/).at(-1) ?? name;
    name = lastSentence.split(/\s+/).slice(-8).join(' ');
  }
  return name;
}

function rowsFromText(text: string, noise: string[]): PriceRow[] {
  const rows: PriceRow[] = [];
  let previousEnd = 0;
  for (const found of findPrices(text)) {
    const name = nameFromSegment(text.slice(previousEnd, found.index), noise);
    previousEnd = found.end;
    rows.push({ name: name || '(no name)', price: found.price });
  }
  return rows;
}

function rowsFromElements(page: PageContext): PriceRow[] {
  const rows: PriceRow[] = [];
  for (const element of page.elements) {
    const text = element.text ?? '';
    const prices = findPrices(text);
    if (prices.length !== 1) continue;
    const price = prices[0]!;
    const name = (text.slice(0, price.index) + ' ' + text.slice(price.end))
      .replace(TRAILING_FILLER, '')
      .replace(/\s+/g, ' ')
      .trim();
    rows.push({ name: name || labelOf(element), price: price.price });
  }
  return rows;
}

/** The rows of the page: from its text when that yields at least two, else from its elements. */
export function extractPriceRows(page: PageContext): PriceRow[] {
  const noise = page.elements
    .filter((e) => ['button', 'input'].includes(e.tag.toLowerCase()) || e.role === 'button')
    .map((e) => labelOf(e).toLowerCase())
    .filter((label) => label.length > 0 && findPrices(label).length === 0);
  const fromText = dedupe(rowsFromText(page.text ?? '', [...new Set(noise)]));
  if (fromText.length >= 2) return fromText;
  const fromElements = dedupe(rowsFromElements(page));
  return fromElements.length > fromText.length ? fromElements : fromText;
}

function dedupe(rows: PriceRow[]): PriceRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = `${row.name}\u0000${row.price}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function toMarkdownTable(rows: PriceRow[]): string {
  return ['| Name | Price |', '| --- | --- |', ...rows.map((r) => `| ${cell(r.name)} | ${cell(r.price)} |`)].join('\n');
}
