// browser_readability_extract in the page: @mozilla/readability on a clone of the document when
// the page reads like an article, as plain text (block boundaries kept as line breaks) and
// Markdown. App pages (a todo list, a form, a dashboard) are not articles: Readability would
// pick whatever paragraphs it finds (TodoMVC's footer), so they, and articles that cover only
// a small part of what the page shows, are read from the live page instead, skipping what is
// hidden (display:none, visibility, [hidden]) and the overlay.
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { htmlToMarkdown, htmlToText } from './html-to-markdown.ts';
import type { PageOps } from './page-ops.ts';

/** An article that holds less than this share of the page's visible text is not "the page". */
export const MIN_ARTICLE_SHARE = 0.5;

function hidden(element: Element): boolean {
  if (element.hasAttribute('data-mimo-overlay') || element.hasAttribute('hidden')) return true;
  const check = (element as HTMLElement).checkVisibility;
  if (typeof check === 'function') return !check.call(element, { visibilityProperty: true } as CheckVisibilityOptions);
  const style = getComputedStyle(element);
  return style.display === 'none' || style.visibility === 'hidden';
}

function livePage(): PageOps['readability']['result'] {
  const body = document.body;
  return {
    ok: true,
    title: document.title,
    text: body ? htmlToText(body, { skip: hidden }) : '',
    markdown: body ? htmlToMarkdown(body, { skip: hidden }) : '',
    fallback: true,
  };
}

export function readability(): PageOps['readability']['result'] {
  if (!document.body || !isProbablyReaderable(document)) return livePage();
  const clone = document.cloneNode(true) as Document;
  clone.querySelectorAll('[data-mimo-overlay]').forEach((node) => node.remove());
  const article = new Readability<Node>(clone, { serializer: (node) => node }).parse();
  if (!article || !article.content) return livePage();
  const text = htmlToText(article.content);
  const visible = (document.body.innerText ?? '').replace(/\s+/g, ' ').trim().length;
  if (visible > 0 && text.replace(/\s+/g, ' ').length < visible * MIN_ARTICLE_SHARE) return livePage();
  const result: PageOps['readability']['result'] = {
    ok: true,
    title: article.title || document.title,
    text,
    markdown: htmlToMarkdown(article.content),
    fallback: false,
  };
  if (article.byline) result.byline = article.byline;
  return result;
}
