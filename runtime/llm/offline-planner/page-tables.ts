// Tables in a page's readable text, whatever the page: Markdown pipe tables (the extension's
// readability Markdown renders every HTML <table> so) and tab-separated rows (innerText of a
// table). Pure; the planner renders them back as Markdown in its answer.

export interface PageTable {
  caption?: string;
  header: string[];
  rows: string[][];
}

const MAX_ROWS_SHOWN = 50;

const isSeparator = (line: string) => /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/.test(line.trim());
const pipeCells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());
const isPipeRow = (line: string) => /^\s*\|.*\|\s*$/.test(line) && pipeCells(line).length >= 2;
const tabCells = (line: string) => line.split('\t').map((c) => c.trim());

function captionBefore(lines: string[], index: number): string | undefined {
  for (let i = index - 1; i >= Math.max(0, index - 2); i--) {
    const line = lines[i]!.replace(/^#+\s*/, '').trim();
    if (!line) continue;
    return line.length <= 80 && !isPipeRow(line) && !line.includes('\t') ? line : undefined;
  }
  return undefined;
}

export function extractTables(text: string): PageTable[] {
  const lines = text.replace(/\r/g, '').split('\n');
  const tables: PageTable[] = [];
  for (let i = 0; i < lines.length;) {
    if (isPipeRow(lines[i]!)) {
      const start = i;
      const block: string[][] = [];
      let separated = false;
      while (i < lines.length && (isPipeRow(lines[i]!) || isSeparator(lines[i]!))) {
        if (isSeparator(lines[i]!)) separated = true;
        else block.push(pipeCells(lines[i]!));
        i++;
      }
      if (block.length >= 2 || (separated && block.length >= 1))
        tables.push(tableOf(block, captionBefore(lines, start)));
      continue;
    }
    const cells = tabCells(lines[i]!);
    if (cells.length >= 2) {
      const start = i;
      const block: string[][] = [];
      while (i < lines.length && tabCells(lines[i]!).length === cells.length) block.push(tabCells(lines[i++]!));
      if (block.length >= 2) tables.push(tableOf(block, captionBefore(lines, start)));
      continue;
    }
    i++;
  }
  return tables.filter((t) => t.rows.length > 0 || t.header.some(Boolean));
}

function tableOf(block: string[][], caption: string | undefined): PageTable {
  const width = Math.max(...block.map((r) => r.length));
  const pad = (row: string[]) => [...row, ...Array(width - row.length).fill('')];
  const [header, ...rows] = block.map(pad);
  return { ...(caption ? { caption } : {}), header: header!, rows: rows.filter((r) => r.some(Boolean)) };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function tableToMarkdown(table: PageTable): string {
  const shown = table.rows.slice(0, MAX_ROWS_SHOWN);
  const lines = [
    `| ${table.header.map(cell).join(' | ')} |`,
    `| ${table.header.map(() => '---').join(' | ')} |`,
    ...shown.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
  if (table.rows.length > shown.length) lines.push('', `(${table.rows.length - shown.length} more rows not shown)`);
  return lines.join('\n');
}
