import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../text/markdown.ts';

/** Model text as Markdown; renderMarkdown escapes everything and emits only whitelisted markup. */
export function MarkdownText({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="md" dangerouslySetInnerHTML={{ __html: html }} />;
}
