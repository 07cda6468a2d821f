// The closing answer of a request: what was done (from the tool results), then the summary, the
// table or the state of the page. Built only from the page context and the results.
import type { PageContext } from '../llm-types.ts';
import { ANSWER_PREFIX, clip } from './answers.ts';
import type { ToolStep } from './conversation.ts';
import { formatSummary, pageExcerpt, pageName, pageNotes } from './page-summary.ts';
import { ACTION_TOOLS, TOOL, type PlanItem } from './plan-steps.ts';
import { extractPriceRows, toMarkdownTable } from './price-table.ts';
import type { AnswerKind } from './request-intent.ts';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** One line per successful step, pairing action steps with the plan items they carried out. */
export function describeSteps(steps: ToolStep[], plan: PlanItem[]): string[] {
  const lines: string[] = [];
  let planIndex = 0;
  for (const step of steps) {
    if (step.ok === false) continue;
    const result = record(step.result);
    const item = ACTION_TOOLS.has(step.name) ? plan[planIndex++] : undefined;
    const id = step.arguments.clickId;
    const warnings = Array.isArray(result.warnings) ? ` (warnings: ${result.warnings.join('; ')})` : '';
    if (step.name === TOOL.open) lines.push(`Opened ${String(step.arguments.url)}`);
    else if (step.name === TOOL.read) lines.push('Read the current page');
    else if (step.name === TOOL.click) {
      const what = item?.opensNewTab ? 'the link that opens a new tab' : item?.action.kind === 'click' ? `"${clip(item.action.target, 60)}"` : 'an element';
      lines.push(`Clicked ${what} (element ${String(id)}${typeof result.strategy === 'string' ? `, ${result.strategy}` : ''})${warnings}`);
    } else if (step.name === TOOL.type) {
      const field = item?.action.kind === 'type' && item.action.field ? `the "${item.action.field}" field` : 'a text field';
      lines.push(`Typed "${clip(String(step.arguments.text ?? ''), 60)}" into ${field} (element ${String(id)})${step.arguments.submit === true ? ' and submitted' : ''}${warnings}`);
    } else if (step.name === TOOL.switchTab) {
      const title = typeof result.title === 'string' ? ` "${result.title}"` : '';
      const url = typeof result.url === 'string' && result.url ? ` (${result.url})` : '';
      lines.push(`Switched to tab ${String(result.tabId ?? step.arguments.tabId)}${title}${url}`);
    } else lines.push(`Ran ${step.name}`);
  }
  return lines;
}

export function finalAnswer(kind: AnswerKind, page: PageContext, done: string[]): string {
  const head = done.length > 0 ? `${ANSWER_PREFIX}done.\n\n${done.map((d) => `- ${d}`).join('\n')}\n\n` : ANSWER_PREFIX;
  const name = pageName(page);
  if (kind === 'summary') return `${head}${formatSummary(page)}`;
  if (kind === 'table') {
    const rows = extractPriceRows(page);
    if (rows.length === 0) {
      return `${head}I found no names with prices on ${name}, neither in its text nor in its elements. Here is what the page says instead:\n\n${formatSummary(page)}`;
    }
    return [`${head}Found ${rows.length} item${rows.length === 1 ? '' : 's'} with prices on ${name}:`, '', toMarkdownTable(rows), ...pageNotes(page)].join('\n');
  }
  const excerpt = pageExcerpt(page);
  return [`${head}The page is now ${name}.`, ...(excerpt ? ['', `It reads: ${excerpt}`] : []), ...pageNotes(page)].join('\n');
}
