// The closing answer of a request: what was done (from the tool results), then the summary, the
// table or the state of the page. Built only from the page context and the results.
import type { PageContext } from '../llm-types.ts';
import { ANSWER_PREFIX, clip } from './answers.ts';
import type { ToolStep } from './conversation.ts';
import { formatSummary, pageExcerpt, pageName, pageNotes } from './page-summary.ts';
import { TOOL, isPlanStep, type PlanItem } from './plan-steps.ts';
import { extractPriceRows, toMarkdownTable } from './price-table.ts';
import { extractTables, tableToMarkdown } from './page-tables.ts';
import type { AnswerKind, DroppedPart } from './request-intent.ts';
import { scoreLabel, MATCH_SCORE } from './element-match.ts';

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
    const item = isPlanStep(step) ? plan[planIndex++] : undefined;
    const id = step.arguments.clickId;
    const warnings = Array.isArray(result.warnings) ? ` (warnings: ${result.warnings.join('; ')})` : '';
    if (step.name === TOOL.open) lines.push(`Opened ${String(step.arguments.url)}`);
    else if (step.name === TOOL.read) lines.push('Read the current page');
    else if (step.name === TOOL.click || step.name === TOOL.check) {
      const clicked = targetOf(step.narration);
      const requested =
        item?.action.kind === 'click'
          ? item.action.target
          : item?.action.kind === 'check'
            ? item.action.target
            : undefined;
      const what = item?.opensNewTab
        ? 'the link that opens a new tab'
        : clicked
          ? `"${clip(clicked, 60)}"`
          : requested
            ? `"${clip(requested, 60)}"`
            : 'an element';
      const phrase = item?.action.kind === 'check' ? item.action.phrase : undefined;
      const named = (wanted: string | undefined) =>
        wanted !== undefined && clicked !== undefined && scoreLabel(wanted, clicked) >= MATCH_SCORE.sameWords;
      const asked = requested && clicked && !named(requested) && !named(phrase) ? ` for "${clip(requested, 40)}"` : '';
      const verb = step.name === TOOL.check ? (step.arguments.checked === false ? 'Unchecked' : 'Checked') : 'Clicked';
      const state =
        typeof result.checked === 'boolean' ? `; it is now ${result.checked ? 'checked' : 'unchecked'}` : '';
      lines.push(
        `${verb} ${what}${asked} (element ${String(id)}${typeof result.strategy === 'string' ? `, ${result.strategy}` : ''}${state})${warnings}`,
      );
    } else if (step.name === TOOL.select) {
      const chosen =
        Array.isArray(result.labels) && result.labels.length
          ? result.labels.map(String)
          : ((step.arguments.values as unknown[]) ?? []).map(String);
      const into = /in "(.+?)" \(element/.exec(step.narration ?? '')?.[1];
      lines.push(
        `Chose ${chosen.map((c) => `"${clip(c, 40)}"`).join(', ')}${into ? ` in "${into}"` : ''} (element ${String(id)}${typeof result.via === 'string' ? `, via ${result.via}` : ''})${warnings}`,
      );
    } else if (step.name === TOOL.type) {
      const field =
        targetOf(step.narration, 'into') ??
        (item?.action.kind === 'type' && item.action.field ? item.action.field : undefined);
      lines.push(
        `Typed "${clip(String(step.arguments.text ?? ''), 60)}" into ${field ? `"${clip(field, 40)}"` : 'a text field'} (element ${String(id)})${step.arguments.submit === true ? submitClaim(result) : ''}${warnings}`,
      );
    } else if (step.name === TOOL.switchTab) {
      const title = typeof result.title === 'string' ? ` "${result.title}"` : '';
      const url = typeof result.url === 'string' && result.url ? ` (${result.url})` : '';
      lines.push(`Switched to tab ${String(result.tabId ?? step.arguments.tabId)}${title}${url}`);
    } else lines.push(`Ran ${step.name}`);
  }
  return lines;
}

/**
 * What pressing Enter to submit did, as the page showed it: "submitted" only when the
 * page saw a form submit or navigated; Enter in a textarea is a line break, not a submit.
 */
function submitClaim(result: Record<string, unknown>): string {
  if (result.submitted === true || result.navigated === true) return ' and submitted';
  if (result.submitted === false) return ' and pressed Enter (the page saw no form submit and did not navigate)';
  return ' and pressed Enter (the browser did not say whether anything was submitted)';
}

/** The element label the planner narrated for a step: `clicking "X"` (or the text after `into`). */
function targetOf(narration: string | undefined, after?: 'into'): string | undefined {
  if (!narration) return undefined;
  const pattern =
    after === 'into' ? /into "(.+?)" \(element/ : /(?:clicking|checking|unchecking|toggling) "(.+?)" \(element/;
  return pattern.exec(narration)?.[1];
}

/** The parts of the request that were not done, one line each. */
export function notDoneLines(dropped: DroppedPart[] | undefined, remaining: string[] = []): string[] {
  return [...remaining, ...(dropped ?? []).map((d) => `"${clip(d.text, 80)}": ${d.reason}`)];
}

export function finalAnswer(kind: AnswerKind, page: PageContext, done: string[], dropped?: DroppedPart[]): string {
  const notDone = notDoneLines(dropped);
  const doneList = done.map((d) => `- ${d}`).join('\n');
  const head =
    notDone.length > 0
      ? `${ANSWER_PREFIX}I did only part of this request.\n\n${done.length ? `Done:\n${doneList}\n\n` : ''}Not done:\n${notDone.map((d) => `- ${d}`).join('\n')}\n\n`
      : done.length > 0
        ? `${ANSWER_PREFIX}done.\n\n${doneList}\n\n`
        : ANSWER_PREFIX;
  const name = pageName(page);
  if (kind === 'summary') return `${head}${formatSummary(page)}`;
  if (kind === 'table') {
    const tables = extractTables(page.text ?? '');
    if (tables.length > 0) {
      const shown = tables.slice(0, 3);
      const parts = shown.map(
        (t, i) =>
          `${tables.length > 1 ? `Table ${i + 1} of ${tables.length}${t.caption ? ` (${t.caption})` : ''}, ${t.rows.length} row${t.rows.length === 1 ? '' : 's'}:\n\n` : ''}${tableToMarkdown(t)}`,
      );
      return [
        `${head}Found ${tables.length} table${tables.length === 1 ? '' : 's'} on ${name}:`,
        '',
        parts.join('\n\n'),
        ...(tables.length > shown.length ? ['', `(${tables.length - shown.length} more tables not shown.)`] : []),
        ...pageNotes(page),
      ].join('\n');
    }
    const rows = extractPriceRows(page);
    if (rows.length === 0) {
      return `${head}I found no names with prices on ${name}, neither in its text nor in its elements. Here is what the page says instead:\n\n${formatSummary(page)}`;
    }
    return [
      `${head}Found ${rows.length} item${rows.length === 1 ? '' : 's'} with prices on ${name}:`,
      '',
      toMarkdownTable(rows),
      ...pageNotes(page),
    ].join('\n');
  }
  const excerpt = pageExcerpt(page);
  return [`${head}The page is now ${name}.`, ...(excerpt ? ['', `It reads: ${excerpt}`] : []), ...pageNotes(page)].join(
    '\n',
  );
}
