// Lexical helpers for reading a user's request: quoted spans and URLs are lifted out (and
// replaced by placeholders) so that keywords inside them do not steer the planner.

export interface MaskedRequest {
  /** The request with quotes as ⟦q0⟧, ⟦q1⟧ ... and URLs as ⟦u0⟧ ... */
  masked: string;
  quotes: string[];
  urls: string[];
  /** Site-relative paths such as /products.html, resolved later against the current page. */
  paths: string[];
}

const QUOTE_PATTERNS = [
  /"([^"]+)"/g,
  /“([^”]+)”/g,
  /«([^»]+)»/g,
  /„([^“”]+)[“”]/g,
  /「([^」]+)」/g,
  /‘([^’]+)’/g,
  /(?<![\p{L}\p{N}])'([^']+?)'(?![\p{L}\p{N}])/gu,
  /`([^`]+)`/g,
];

const TLDS =
  'com|org|net|io|dev|app|ai|co|uk|de|fr|es|it|nl|eu|edu|gov|info|biz|me|tv|us|ca|au|jp|cn|ru|ch|se|no|fi|pl|be|at|in|br|mx|site|shop|store|online|tech|xyz|page|blog|news|cloud';
const URL_PATTERN = new RegExp(
  [
    String.raw`\bhttps?:\/\/[^\s"'<>\]\[)(]+`,
    String.raw`\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?:\/[^\s"'<>)]*)?`,
    String.raw`(?<![@\w.-])(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})(?::\d{1,5})?(?:\/[^\s"'<>)]*)?(?![\w.-]*@)`,
  ].join('|'),
  'gi',
);
const PATH_PATTERN = /(?<=^|\s)(?:\/[\w\-.~%/]*[\w\-~%/]|[\w-]+\.html?)(?:\?[^\s"'<>)]*)?(?=$|[\s,;!?)]|\.(?:\s|$))/g;

export function maskRequest(text: string): MaskedRequest {
  const quotes: string[] = [];
  const urls: string[] = [];
  const paths: string[] = [];
  let masked = text;
  for (const pattern of QUOTE_PATTERNS) {
    masked = masked.replace(pattern, (_m, inner: string) => {
      quotes.push(inner.trim());
      return ` ⟦q${quotes.length - 1}⟧ `;
    });
  }
  // A quoted URL is a URL ("open 'https://example.com'").
  masked = masked.replace(/⟦q(\d+)⟧/g, (placeholder, i: string) => {
    const quote = quotes[Number(i)] ?? '';
    const whole = new RegExp(`^(?:${URL_PATTERN.source})$`, 'i');
    if (!whole.test(quote)) return placeholder;
    urls.push(normalizeUrl(quote));
    return `⟦u${urls.length - 1}⟧`;
  });
  masked = masked.replace(URL_PATTERN, (found: string) => {
    const trimmed = found.replace(/[.,;:!?]+$/, '');
    const rest = found.slice(trimmed.length);
    urls.push(normalizeUrl(trimmed));
    return ` ⟦u${urls.length - 1}⟧ ${rest}`;
  });
  masked = masked.replace(PATH_PATTERN, (found: string) => {
    paths.push(found);
    return ` ⟦p${paths.length - 1}⟧ `;
  });
  return { masked: masked.replace(/[ \t]+/g, ' ').trim(), quotes, urls, paths };
}

/** Replaces placeholders in `text` by what they stand for (quotes without their quote marks). */
export function unmask(text: string, request: MaskedRequest): string {
  return text
    .replace(/⟦q(\d+)⟧/g, (_m, i: string) => request.quotes[Number(i)] ?? '')
    .replace(/⟦u(\d+)⟧/g, (_m, i: string) => request.urls[Number(i)] ?? '')
    .replace(/⟦p(\d+)⟧/g, (_m, i: string) => request.paths[Number(i)] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first quote placeholder in `text`, as its quoted string. */
export function firstQuote(text: string, request: MaskedRequest): string | undefined {
  const match = /⟦q(\d+)⟧/.exec(text);
  return match ? request.quotes[Number(match[1])] : undefined;
}

function normalizeUrl(found: string): string {
  if (/^https?:\/\//i.test(found)) return found;
  if (/^(?:localhost|\d{1,3}(?:\.\d{1,3}){3})/i.test(found)) return `http://${found}`;
  return `https://${found}`;
}

/** Lower-case words without punctuation, for loose comparison. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const STOPWORDS = new Set([
  'the',
  'a',
  'an',
  'on',
  'to',
  'of',
  'in',
  'into',
  'for',
  'and',
  'or',
  'with',
  'that',
  'this',
  'it',
  'is',
  'my',
  'me',
  'please',
  'button',
  'link',
  'field',
  'box',
  'input',
  'element',
  'page',
  'tab',
]);

/** Content words (stop words and widget nouns removed), crudely stemmed. */
export function keywordsOf(text: string): string[] {
  return wordsOf(text)
    .filter((w) => !STOPWORDS.has(w))
    .map(stem);
}

export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ing)$/.test(word)) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('es') && /(?:ch|sh|x|s)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
