// A small DOM -> Markdown converter for readability output: headings, paragraphs, emphasis,
// code, links, images, lists, block quotes, tables, rules, checkbox states. Enough for an LLM to
// read structure. `skip` leaves elements out (hidden ones, when converting the live page); the
// plain-text twin keeps block boundaries as line breaks.

const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'figure',
  'figcaption',
  'nav',
  'form',
  'fieldset',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
]);

/** Elements to leave out (with their subtree). */
let skip: (element: Element) => boolean = () => false;

function inline(text: string): string {
  return text.replace(/\s+/g, ' ');
}

function children(node: Node, depth: number): string {
  let out = '';
  for (const child of Array.from(node.childNodes)) out += convert(child, depth);
  return out;
}

function block(text: string): string {
  const trimmed = text.trim();
  return trimmed ? `\n\n${trimmed}\n\n` : '';
}

function list(element: Element, depth: number, ordered: boolean): string {
  let n = 0;
  const items = Array.from(element.children)
    .filter((child) => child.localName === 'li')
    .map((li) => {
      n += 1;
      const marker = ordered ? `${n}.` : '-';
      const body = children(li, depth + 1)
        .trim()
        .replace(/\n{2,}/g, '\n')
        .replace(/\n/g, `\n${'  '.repeat(depth + 1)}`);
      return `${'  '.repeat(depth)}${marker} ${body}`;
    });
  return depth === 0 ? block(items.join('\n')) : `\n${items.join('\n')}`;
}

function table(element: Element): string {
  const rows = Array.from(element.querySelectorAll('tr')).map((tr) =>
    Array.from(tr.children).map((cell) =>
      inline(cell.textContent ?? '')
        .trim()
        .replace(/\|/g, '\\|'),
    ),
  );
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const pad = (row: string[]) => `| ${[...row, ...Array(width - row.length).fill('')].join(' | ')} |`;
  const [head, ...body] = rows;
  return block([pad(head!), `| ${Array(width).fill('---').join(' | ')} |`, ...body.map(pad)].join('\n'));
}

function convert(node: Node, depth: number): string {
  if (node.nodeType === Node.TEXT_NODE) return inline(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const element = node as Element;
  const tag = element.localName;
  if (skip(element)) return '';
  switch (tag) {
    case 'input': {
      const input = element as HTMLInputElement;
      return input.type === 'checkbox' || input.type === 'radio' ? (input.checked ? '[x] ' : '[ ] ') : '';
    }
    case 'script':
    case 'style':
    case 'noscript':
    case 'template':
      return '';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return block(`${'#'.repeat(Number(tag[1]))} ${children(element, depth).trim()}`);
    case 'br':
      return '  \n';
    case 'hr':
      return block('---');
    case 'strong':
    case 'b': {
      const text = children(element, depth).trim();
      return text ? `**${text}**` : '';
    }
    case 'em':
    case 'i': {
      const text = children(element, depth).trim();
      return text ? `*${text}*` : '';
    }
    case 'code':
      return element.parentElement?.localName === 'pre'
        ? (element.textContent ?? '')
        : `\`${element.textContent ?? ''}\``;
    case 'pre':
      return block(`\`\`\`\n${(element.textContent ?? '').replace(/\n$/, '')}\n\`\`\``);
    case 'a': {
      const text = children(element, depth).trim();
      const href = element.getAttribute('href');
      return href && text && !href.startsWith('javascript:')
        ? `[${text}](${(element as HTMLAnchorElement).href || href})`
        : text;
    }
    case 'img': {
      const alt = element.getAttribute('alt') ?? '';
      const src = (element as HTMLImageElement).src || element.getAttribute('src') || '';
      return src ? `![${alt}](${src})` : alt;
    }
    case 'ul':
      return list(element, depth, false);
    case 'ol':
      return list(element, depth, true);
    case 'blockquote':
      return block(
        children(element, depth)
          .trim()
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n'),
      );
    case 'table':
      return table(element);
    default:
      return BLOCK.has(tag) ? block(children(element, depth)) : children(element, depth);
  }
}

export function htmlToMarkdown(root: Node, options: { skip?: (element: Element) => boolean } = {}): string {
  skip = options.skip ?? (() => false);
  try {
    return convert(root, 0)
      .replace(/[ \t]+\n/g, (match) => (match.startsWith('  ') ? '  \n' : '\n'))
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  } finally {
    skip = () => false;
  }
}

const TEXT_BLOCK = new Set([
  ...BLOCK,
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
  'pre',
  'blockquote',
  'hr',
  'label',
  'legend',
  'option',
  'caption',
]);
const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'head']);

function textOf(node: Node, out: string[], omit: (element: Element) => boolean): void {
  if (node.nodeType === Node.TEXT_NODE) {
    out.push((node.textContent ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (
    node.nodeType !== Node.ELEMENT_NODE &&
    node.nodeType !== Node.DOCUMENT_NODE &&
    node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE
  )
    return;
  const element = node as Element;
  const tag = element.localName;
  if (tag && (NO_TEXT.has(tag) || omit(element))) return;
  if (tag === 'br') return void out.push('\n');
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') out.push(input.checked ? '[x] ' : '[ ] ');
    return;
  }
  const block = TEXT_BLOCK.has(tag);
  if (block) out.push('\n');
  if (tag === 'td' || tag === 'th') out.push(' ');
  for (const child of Array.from(node.childNodes)) textOf(child, out, omit);
  if (block) out.push('\n');
}

/** Plain text with a line break at every block boundary (paragraphs, list items, rows, labels). */
export function htmlToText(root: Node, options: { skip?: (element: Element) => boolean } = {}): string {
  const out: string[] = [];
  textOf(root, out, options.skip ?? (() => false));
  return out
    .join('')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
