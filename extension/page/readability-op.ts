// browser_readability_extract in the page: @mozilla/readability on a clone of the document,
// as plain text and Markdown; pages without an article fall back to the body's text.
import { Readability } from '@mozilla/readability';
import { htmlToMarkdown } from './html-to-markdown.ts';
import type { PageOps } from './page-ops.ts';

function normalizeText(text: string): string {
  return text.replace(/[ \t\f\v\r]+/g, ' ').replace(/ *\n */g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

export function readability(): PageOps['readability']['result'] {
  const clone = document.cloneNode(true) as Document;
  clone.querySelectorAll('[data-mimo-overlay]').forEach((node) => node.remove());
  const article = new Readability<Node>(clone, { serializer: (node) => node }).parse();
  if (article && article.content) {
    const result: PageOps['readability']['result'] = {
      ok: true,
      title: article.title || document.title,
      text: normalizeText(article.textContent ?? ''),
      markdown: htmlToMarkdown(article.content),
      fallback: false,
    };
    if (article.byline) result.byline = article.byline;
    return result;
  }
  const body = document.body;
  return {
    ok: true,
    title: document.title,
    text: normalizeText(body?.innerText ?? ''),
    markdown: body ? htmlToMarkdown(body) : '',
    fallback: true,
  };
}
