// A small, safe Markdown renderer for model output. Everything is HTML-escaped first; the only
// markup that can come out is a fixed whitelist built here: p, br, strong, em, code, pre, a
// (http/https only, rel="noopener noreferrer"), ul/ol/li, table/thead/tbody/tr/th/td. Headings
// become bold paragraphs. No raw HTML, no other URL scheme, no attribute from the input except
// an escaped, URL-parsed href.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The URL as the browser would resolve it, only when it is absolute http(s). */
export function safeHttpUrl(raw: string): string | null {
  if (!/^https?:\/\//i.test(raw)) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function link(href: string, labelHtml: string): string {
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer" target="_blank">${labelHtml}</a>`;
}

/** Placeholders are NUL-delimited; NUL never survives from the input (see renderMarkdown). */
const HOLE = /\u0000(\d+)\u0000/g;

function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*(?=\S)([^<>]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/__(?=\S)([^<>]*?\S)__/g, '<strong>$1</strong>')
    .replace(/\*(?=[^\s*])([^<>*]*?[^\s*])\*/g, '<em>$1</em>')
    .replace(/(^|[^\w])_(?=[^\s_])([^<>_]*?[^\s_])_(?!\w)/g, '$1<em>$2</em>');
}

/** Inline markup with placeholders for held fragments (code spans, links). */
function inlineHtml(source: string, held: string[], links: boolean): string {
  const hold = (html: string) => `\u0000${held.push(html) - 1}\u0000`;
  let text = source.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) =>
    hold(`<code>${escapeHtml(code)}</code>`),
  );
  if (links) {
    text = text.replace(
      /\[([^\]\n]*)\]\(\s*<?([^\s<>]+?)>?(?:\s+"[^"\n]*")?\s*\)/g,
      (whole, label: string, url: string) => {
        const href = safeHttpUrl(url);
        return href ? hold(link(href, inlineHtml(label, held, false))) : whole;
      },
    );
    text = text.replace(/\bhttps?:\/\/[^\s<>"'`\u0000]*[^\s<>"'`\u0000.,;:!?)\]]/gi, (url) => {
      const href = safeHttpUrl(url);
      return href ? hold(link(href, escapeHtml(url))) : url;
    });
  }
  return emphasis(escapeHtml(text));
}

/** Inline markup of one line or cell. */
export function renderInline(source: string): string {
  const held: string[] = [];
  let html = inlineHtml(source, held, true);
  // Held fragments may hold others (a code span inside a link label); they only nest, never cycle.
  for (let depth = 0; depth < 4 && html.includes('\u0000'); depth += 1)
    html = html.replace(HOLE, (_, n: string) => held[Number(n)] ?? '');
  return html;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function cells(row: string): string[] {
  let line = row.trim();
  if (line.startsWith('|')) line = line.slice(1);
  if (line.endsWith('|') && !line.endsWith('\\|')) line = line.slice(0, -1);
  return line.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function alignClass(spec: string): string {
  const s = spec.trim();
  if (s.startsWith(':') && s.endsWith(':')) return ' class="ta-c"';
  if (s.endsWith(':')) return ' class="ta-r"';
  return '';
}

export function renderMarkdown(source: string): string {
  const lines = source
    .replace(/\r\n?/g, '\n')
    .replace(/\u0000/g, '\uFFFD')
    .split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map((l) => renderInline(l)).join('<br>')}</p>`);
    paragraph = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const closing = new RegExp(`^\\s{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !closing.test(lines[i]!)) code.push(lines[i++]!);
      i += 1; // the closing fence (or past the end while the text is still streaming)
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      i += 1;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      out.push(`<p><strong>${renderInline(heading[1]!)}</strong></p>`);
      i += 1;
      continue;
    }
    const next = lines[i + 1];
    if (line.includes('|') && next !== undefined && next.includes('-') && TABLE_SEPARATOR.test(next)) {
      flush();
      const head = cells(line);
      const aligns = cells(next).map(alignClass);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim() !== '') rows.push(cells(lines[i++]!));
      const th = head.map((c, k) => `<th${aligns[k] ?? ''}>${renderInline(c)}</th>`).join('');
      const body = rows
        .map((r) => `<tr>${head.map((_, k) => `<td${aligns[k] ?? ''}>${renderInline(r[k] ?? '')}</td>`).join('')}</tr>`)
        .join('');
      out.push(`<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]!);
      const start = ordered ? Number.parseInt(item[1]!, 10) : 1;
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const m = LIST_ITEM.exec(current);
        if (m && /\d/.test(m[1]!) === ordered) items.push([m[2]!]);
        else if (!m && current.trim() !== '' && /^\s{2,}/.test(current) && items.length > 0)
          items[items.length - 1]!.push(current.trim());
        else break;
        i += 1;
      }
      const tag = ordered ? 'ol' : 'ul';
      const startAttr = ordered && start !== 1 ? ` start="${start}"` : '';
      out.push(
        `<${tag}${startAttr}>${items.map((parts) => `<li>${parts.map((p) => renderInline(p)).join('<br>')}</li>`).join('')}</${tag}>`,
      );
      continue;
    }
    paragraph.push(line.trim());
    i += 1;
  }
  flush();
  return out.join('');
}
