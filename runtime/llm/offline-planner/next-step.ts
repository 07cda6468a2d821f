// One planning step: from the conversation (request + tool results so far) and the current
// page/tabs, either the next tool call or the final answer. Stateless and deterministic.
import type { PageElement, StreamChatInput } from '../llm-types.ts';
import { ANSWER_PREFIX, chatAnswer, failureAnswer, unknownAnswer } from './answers.ts';
import { latestPage, pageOfResult, readConversation, type ToolStep } from './conversation.ts';
import { decideAction, type Decision } from './decide-action.ts';
import { describeSteps, finalAnswer, notDoneLines } from './final-answer.ts';
import { PREP_SUFFIX, TOOL, actionPlan, isPlanStep, type PlanItem } from './plan-steps.ts';
import { parseRequest } from './request-intent.ts';

/** Tool calls one request may use before the planner gives up (below the orchestrator's own limit). */
export const MAX_STEPS_PER_REQUEST = 12;

export type { Decision } from './decide-action.ts';

export interface PlannedStep {
  decision: Decision;
  /** Id for the tool call, if the decision is one: `offline_<turn>_<step>`, unique within a conversation. */
  toolCallId: string;
}

export function planNextStep(input: Pick<StreamChatInput, 'messages' | 'context'>): PlannedStep {
  const conversation = readConversation(input.messages);
  const decision = decide(input, conversation);
  const prep = decision.kind === 'tool' && decision.prep === true ? PREP_SUFFIX : '';
  return { decision, toolCallId: `offline_${conversation.turn}_${conversation.steps.length + 1}${prep}` };
}

function decide(
  input: Pick<StreamChatInput, 'messages' | 'context'>,
  conversation: ReturnType<typeof readConversation>,
): Decision {
  const answer = (text: string): Decision => ({ kind: 'answer', text });
  const { request, steps } = conversation;
  if (request === undefined || request.trim() === '') return answer(chatAnswer('help'));
  const intent = parseRequest(request);
  if (intent.kind === 'chat') return answer(chatAnswer(intent.topic));
  if (intent.kind === 'unknown') return answer(unknownAnswer(request, intent.dropped));

  const plan = actionPlan(intent);
  const last = steps.at(-1);
  if (last && last.ok === false) {
    const remaining = plan.slice(steps.filter(isPlanStep).length).map(describeItem);
    return answer(
      failureAnswer(last, describeSteps(steps.slice(0, -1), plan), notDoneLines(intent.dropped, remaining)),
    );
  }
  if (steps.length >= MAX_STEPS_PER_REQUEST) {
    return answer(`${ANSWER_PREFIX}I stopped after ${steps.length} browser steps without finishing this request.`);
  }

  const snapshot = input.context?.snapshot;
  let page = latestPage(steps, input.context?.page);
  const opened = steps.some((s) => s.name === TOOL.open);
  let url = intent.url;
  if (url === undefined && intent.path !== undefined) {
    url = page ? resolveUrl(intent.path, page.url) : undefined;
    if (url === undefined)
      return answer(
        `${ANSWER_PREFIX}"${intent.path}" is a path, but no page with a known address is open to resolve it against. Please give a full URL, e.g. https://example.com${intent.path.startsWith('/') ? '' : '/'}${intent.path}.`,
      );
  }
  if (url !== undefined && !opened) {
    return { kind: 'tool', name: TOOL.open, arguments: { url }, narration: `opening ${url}` };
  }

  if (!page) {
    if (snapshot !== undefined && snapshot.taskTabId === null && !opened) {
      return answer(
        `${ANSWER_PREFIX}there is no page open for this task yet. Tell me which URL to open, e.g. "open https://example.com and summarise it".`,
      );
    }
    if (!steps.some((s) => s.name === TOOL.read))
      return { kind: 'tool', name: TOOL.read, arguments: {}, narration: 'reading the current page' };
    return answer(`${ANSWER_PREFIX}I asked for the current page but got no page content back, so I cannot continue.`);
  }

  const actionSteps = steps.filter(isPlanStep);
  const next = plan[actionSteps.length];
  if (next) {
    const listed = listedSinceLastPage(steps);
    const decided = decideAction(
      next,
      listed.length
        ? {
            ...page,
            elements: [...page.elements, ...listed.filter((e) => !page.elements.some((p) => p.clickId === e.clickId))],
          }
        : page,
      snapshot,
      steps,
    );
    if (decided.kind === 'tool') return decided;
    // The page context left elements out (token budget): look for the target among them first.
    const query = queryOf(next);
    const hidden = page.paging && page.paging.elementsShown < page.paging.elementsTotal;
    const alreadyListed = steps.some(
      (s, i) => s.name === TOOL.listElements && s.arguments.query === query && i > lastPageIndex(steps),
    );
    if (hidden && query && !alreadyListed) {
      return {
        kind: 'tool',
        name: TOOL.listElements,
        arguments: { query },
        narration: `looking for "${query}" among the ${page.paging!.elementsTotal - page.paging!.elementsShown} elements the page context left out`,
      };
    }
    // A plan item the page cannot serve: say so, with what was done and what was left undone.
    const done = describeSteps(steps, plan);
    const notDone = notDoneLines(intent.dropped, plan.slice(actionSteps.length + 1).map(describeItem));
    const extra = [
      ...(done.length ? ['', 'Done before that:', ...done.map((d) => `- ${d}`)] : []),
      ...(notDone.length ? ['', 'Also not done:', ...notDone.map((d) => `- ${d}`)] : []),
    ];
    return answer(`${decided.text}${extra.length ? `\n${extra.join('\n')}` : ''}`);
  }
  return answer(finalAnswer(intent.answer, page, describeSteps(steps, plan), intent.dropped));
}

/** Index of the newest step that carried a page (a listing before it belongs to an older page). */
function lastPageIndex(steps: ToolStep[]): number {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.ok === true && pageOfResult(steps[i]!.result)) return i;
  return -1;
}

/** Elements found by browser_list_elements since the newest page read. */
function listedSinceLastPage(steps: ToolStep[]): PageElement[] {
  const out: PageElement[] = [];
  for (const step of steps.slice(lastPageIndex(steps) + 1)) {
    if (step.name !== TOOL.listElements || step.ok !== true) continue;
    const listed = (step.result as { elementsPage?: { elements?: unknown } } | undefined)?.elementsPage?.elements;
    if (Array.isArray(listed)) out.push(...(listed as PageElement[]));
  }
  return out;
}

/** What to look for in the elements left out of the page context for a plan item. */
function queryOf(item: PlanItem): string | undefined {
  const a = item.action;
  if (a.kind === 'click' || a.kind === 'check') return a.target;
  if (a.kind === 'select') return a.field ?? a.option;
  if (a.kind === 'expand') return a.target;
  if (a.kind === 'type') return a.field;
  return undefined;
}

/** A plan item in words, for "not done" lists. */
function describeItem(item: PlanItem): string {
  const a = item.action;
  if (a.kind === 'click') return `click "${a.target}"`;
  if (a.kind === 'type')
    return a.adds ? `add the ${a.adds} "${a.text}"` : `type "${a.text}"${a.field ? ` into the ${a.field} field` : ''}`;
  if (a.kind === 'check')
    return `${a.want === 'off' ? 'uncheck' : a.want === 'toggle' ? 'toggle' : 'check'} "${a.target}"`;
  if (a.kind === 'select') return `choose "${a.option}"${a.field ? ` in ${a.field}` : ''}`;
  if (a.kind === 'expand') return `${a.want === 'open' ? 'expand' : 'collapse'} "${a.target}"`;
  return 'switch tabs';
}

function resolveUrl(path: string, base: string): string | undefined {
  try {
    return new URL(path, base).href;
  } catch {
    return undefined;
  }
}
