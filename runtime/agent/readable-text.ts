// The readable text the agent keeps of a page: the extension's readability Markdown (headings,
// lists and every <table> as a pipe table survive; plain text loses table cells) with links
// and images reduced to their text, since URLs cost tokens and the element index has the hrefs.
// Plain text when there is no Markdown.

export function readableTextOf(
  readability: { text?: string | undefined; markdown?: string | undefined } | undefined,
): string {
  const markdown = readability?.markdown?.trim();
  if (!markdown) return readability?.text ?? '';
  return markdownForAgent(markdown);
}

export function markdownForAgent(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_m, alt: string) => (alt.trim() ? `[image: ${alt.trim()}]` : ''))
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
