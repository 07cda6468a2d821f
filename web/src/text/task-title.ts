// A title that says what the task is, from the first line of its first message (the server's
// title): a URL becomes its host, and the words that only say "open it" are dropped, so
// "Open http://example.com/docs and summarise the page" reads "example.com - summarise the page".
const MAX = 60;
const URL_RE = /\bhttps?:\/\/[^\s)>\]"']+/i;
const BARE_HOST_RE = /\b((?:[a-z0-9-]+\.)+[a-z]{2,})(?:\/[^\s]*)?/i;
const LEADING = /^(please\s+)?(go\s+to|navigate\s+to|open(\s+up)?|visit|browse\s+to|load)(\s+|$)/i;
const JOINERS = /^(,|\.|;|:|-|and(\s+then)?|then|&)\s*/i;

function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.replace(/^www\./, '');
    return host || null;
  } catch {
    return null;
  }
}

function clip(text: string): string {
  return text.length > MAX ? `${text.slice(0, MAX - 1).trimEnd()}…` : text;
}

export function readableTitle(raw: string | undefined | null): string {
  const line =
    (raw ?? '')
      .split('\n')
      .find((l) => l.trim())
      ?.trim()
      .replace(/…$/, '') ?? '';
  if (line === '') return 'Untitled task';
  const url = URL_RE.exec(line);
  let host: string | null = null;
  let rest = line;
  if (url) {
    host = hostOf(url[0]);
    rest = line.slice(0, url.index) + ' ' + line.slice(url.index + url[0].length);
  } else {
    const bare = BARE_HOST_RE.exec(line);
    if (bare && LEADING.test(line.slice(0, bare.index))) {
      host = bare[1]!.replace(/^www\./, '');
      rest = line.slice(0, bare.index) + ' ' + line.slice(bare.index + bare[0].length);
    }
  }
  if (!host) return clip(line);
  rest = rest.replace(/\s+/g, ' ').trim().replace(LEADING, '');
  for (let i = 0; i < 3; i++) rest = rest.replace(JOINERS, '').trim();
  rest = rest.replace(/[.!]+$/, '');
  return clip(rest ? `${host} - ${rest}` : host);
}
