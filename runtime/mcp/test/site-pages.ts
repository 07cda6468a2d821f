// Pages of fixtures/site, fetched from the served site and reduced to what the fake browser
// answers with: a readability-like title and text, and the interactive elements in document
// order (the tags the extension's DOM index picks: a[href], button, input, select, textarea).
import type { FixtureSite } from '../../../fixtures/site/serve.ts';
import type { FakeElement, FakePage } from './fake-browser.ts';

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
const plain = (html: string) =>
  decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

export function reduceHtml(html: string, baseUrl: string): FakePage {
  const title = plain(/<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
  const body = (/<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html).replace(
    /<(script|style)[\s\S]*?<\/\1>/gi,
    ' ',
  );
  const main = /<article[^>]*>([\s\S]*?)<\/article>/i.exec(body)?.[1] ?? body;
  const text = decode(main.replace(/<\/(p|h\d|li|tr|div|pre|dt|dd)>/gi, '\n').replace(/<[^>]+>/g, ' '))
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  const elements: FakeElement[] = [];
  for (const match of body.matchAll(/<(a|button|input|select|textarea)\b([^>]*)>(?:([\s\S]*?)<\/\1>)?/gi)) {
    const tag = match[1]!.toLowerCase();
    const open = `<${tag}${match[2]}>`;
    const type = attr(open, 'type');
    if (tag === 'a' && !attr(open, 'href')) continue;
    if (tag === 'input' && type === 'hidden') continue;
    const element: FakeElement = { tag };
    const inner = match[3] && tag !== 'select' ? plain(match[3]) : '';
    if (inner) element.text = inner;
    if (type) element.type = type;
    const name = attr(open, 'name') ?? attr(open, 'id');
    if (name) element.name = name;
    const placeholder = attr(open, 'placeholder');
    if (placeholder) element.placeholder = placeholder;
    const href = attr(open, 'href');
    if (href) element.href = new URL(href, baseUrl).href;
    if (tag === 'a' && element.href) element.navigatesTo = element.href;
    elements.push(element);
  }
  return { title, text, elements };
}

export async function loadSitePages(site: FixtureSite, paths: string[]): Promise<Record<string, FakePage>> {
  const pages: Record<string, FakePage> = {};
  for (const path of paths) {
    const url = `${site.url}${path}`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    pages[url] = reduceHtml(await response.text(), url);
  }
  return pages;
}
