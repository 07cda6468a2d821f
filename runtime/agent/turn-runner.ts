// One turn of a task (seed 000 §3.1 / §3.2, §5): the LLM <-> tools loop for one user message.
// Streams chatDelta as deltas arrive, runs tool calls on the task's browser, feeds the seed's
// tool-result JSON back, stops runaway loops at the step limit, and persists the answer.
import { errorValue, type ErrorValue } from '../../machines/index.ts';
import { toolResultError, toolResultOk } from '../../transport/contracts/index.ts';
import type { LlmGateway, LlmMessage, LlmToolCall, PageContext } from '../llm/llm-types.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import { browserContextOf } from './browser-context.ts';
import { availableBrowserTools, runBrowserTool, type ToolOutcome } from './browser-tools.ts';
import { DEFAULT_CONTEXT_TOKENS } from './context-budget.ts';
import { createStepContext } from './step-context.ts';
import { systemPromptFor } from './system-prompt.ts';
import type { TaskBrowser } from './task-browser.ts';
import { nextTurnFailure, stepLimitFailure } from './turn-outcome.ts';
import type { GuardedCall } from './person-guard.ts';
import { markUntrusted, newBoundary, unmarkUntrusted } from '../llm/untrusted-content.ts';

export interface TurnDeps {
  taskId: string;
  llm: LlmGateway;
  browser: TaskBrowser;
  events: FrontendEventSink;
  stepLimit: number;
  llmTimeoutMs?: number;
  history: LlmMessage[];
  snapshotOf(clientId: string): Parameters<typeof browserContextOf>[0];
  onUsage(usage: { promptTokens: number; completionTokens: number; totalTokens: number }): void;
  /** Tokens (o200k) of one step's page context: the page or paging result plus the browser state. Default 4000. */
  contextTokens?: number;
  /** Tabs left out of the browser state (tabs of finished tasks). */
  hideTab?(tab: { tabId: number; groupId?: number | undefined }): boolean;
  /** Called with each LLM event and tool result (the recorder). */
  onTrace?(entry: Record<string, unknown>): void;
  /** The person's guard: every acting tool call goes through it; page data is marked untrusted. */
  guard?: { check(call: GuardedCall): Promise<ErrorValue | null> };
}

export interface TurnResult {
  text: string;
  /** The text as the web saw it: one segment per run of deltas between steps, at its first delta's seq. */
  segments: Array<{ seq: number; text: string }>;
  steps: number;
  stoppedAtLimit: boolean;
  /** The turn ended on a failure (turn-outcome.ts): the task goes to `error` with this cause. */
  failure: ErrorValue | null;
}

/** A turn that must end the task in `error` (seed 000 §5: LlmError; §4.5: PAGE_PREP_FAILED). */
export class TurnFailure extends Error {
  constructor(readonly error: ErrorValue) {
    super(error.message);
  }
}

/**
 * Codes that end the turn early but leave the task usable (the user fixes the cause and asks
 * again). PLUGIN_TIMEOUT_ACK: seed 001 §4.1, the plugin is unusable, nothing more is dispatched.
 */
const STOPS_TURN = new Set(['PLUGIN_OFFLINE', 'PLUGIN_TIMEOUT_ACK']);
/** Codes that end the task in `error`. */
const FAILS_TASK = new Set(['PAGE_PREP_FAILED']);

export async function runTurn(
  deps: TurnDeps,
  message: { id: string; content: string; traceId?: string },
  signal?: AbortSignal,
): Promise<TurnResult> {
  const { events, taskId } = deps;
  const traceId = message.traceId;
  const delta = (content: string, finished = false) =>
    events.toTask(
      taskId,
      { type: 'chatDelta', sender: 'assistant', targetEventId: message.id, finished, delta: { content } },
      traceId,
    );

  const messages: LlmMessage[] = [
    { role: 'system', content: systemPromptFor(deps.llm, { untrustedPages: deps.guard !== undefined }) },
    ...deps.history,
    { role: 'user', content: message.content },
  ];
  let text = '';
  let steps = 0;
  let stoppedAtLimit = false;
  let failure: ErrorValue | null = null;
  const stepContext = createStepContext({
    budgetTokens: deps.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
    ...(deps.hideTab ? { hideTab: deps.hideTab } : {}),
  });
  let currentPage: PageContext | undefined;
  /** The tool messages whose page payload is still in the conversation (the next page supersedes them). */
  let livePages = messages.filter(hasPagePayload);
  const segments: TurnResult['segments'] = [];
  /** False once a step's tools run (or an error is told): the next text starts a new segment. */
  let segmentOpen = false;
  /** Page data (tool results with a page, tab titles) is delimited with this turn's boundary (untrusted-content.ts). */
  const boundary = newBoundary();
  const say = (content: string) => {
    if (!content) return;
    text += content;
    const { seq } = delta(content);
    if (!segmentOpen) segments.push({ seq: seq ?? 0, text: '' });
    segmentOpen = true;
    segments[segments.length - 1]!.text += content;
  };

  for (;;) {
    // STOP ended the turn (its actions settled as canceled): no further LLM step.
    if (signal?.aborted)
      throw new TurnFailure(errorValue('TASK_STOPPED', 'the task was stopped', { retryable: false }));
    if (steps >= deps.stepLimit) {
      stoppedAtLimit = true;
      say(`${text ? '\n\n' : ''}I stopped after ${deps.stepLimit} steps without finishing; tell me how to continue.`);
      break;
    }
    steps++;
    const snapshot = deps.browser.clientId ? deps.snapshotOf(deps.browser.clientId) : undefined;
    const { browserState, stateMessage } = stepContext.browserState(snapshot, deps.browser.tabId);
    if (!currentPage && deps.browser.fullPage)
      currentPage = stepContext.fitPage(deps.browser.fullPage, stateMessage, 'browser_read_page', {});
    const stepMessages: LlmMessage[] = [
      ...messages,
      { role: 'system', content: deps.guard ? markUntrusted(stateMessage, boundary) : stateMessage },
    ];
    const calls: LlmToolCall[] = [];
    let stepText = '';
    if (text && !text.endsWith('\n')) say('\n\n');
    for await (const event of deps.llm.streamChat({
      taskId,
      messages: stepMessages,
      tools: availableBrowserTools(),
      context: { snapshot: browserState, ...(currentPage ? { page: currentPage } : {}) },
      ...(deps.llmTimeoutMs ? { timeoutMs: deps.llmTimeoutMs } : {}),
      ...(signal ? { signal } : {}),
      ...(traceId ? { traceId } : {}),
    })) {
      deps.onTrace?.({ kind: 'llm', event });
      if (event.type === 'delta') {
        stepText += event.content;
        say(event.content);
      } else if (event.type === 'tool_call') {
        calls.push(event);
      } else if (event.type === 'done') {
        if (event.usage) deps.onUsage(event.usage);
      } else if (event.type === 'error') {
        throw new TurnFailure(errorValue(event.code, event.message, { retryable: event.retryable ?? false }));
      }
    }
    if (calls.length === 0) break;
    segmentOpen = false;

    messages.push({
      role: 'assistant',
      content: stepText,
      toolCalls: calls.map((c) => ({ toolCallId: c.toolCallId, name: c.name, arguments: c.arguments })),
    });
    let stopTurn: ErrorValue | null = null;
    for (const call of calls) {
      stepContext.noteAction(call.name, call.arguments, deps.browser.fullPage);
      const current = stepContext.browserState(
        deps.browser.clientId ? deps.snapshotOf(deps.browser.clientId) : undefined,
        deps.browser.tabId,
      ).stateMessage;
      const outcome: ToolOutcome = call.argumentsError
        ? {
            ok: false,
            error: errorValue(
              'SCHEMA_VALIDATION_FAILED',
              `the arguments of ${call.name} are not valid JSON: ${call.argumentsError}`,
            ),
          }
        : stopTurn
          ? { ok: false, error: errorValue('SKIPPED', 'not run: an earlier tool call of this step failed') }
          : await runBrowserTool(
              deps.browser,
              {
                snapshotOf: deps.snapshotOf,
                pagingTokens: stepContext.pagingTokens(current),
                ...(deps.guard ? { guard: deps.guard } : {}),
              },
              call.name,
              call.arguments,
              { toolCallId: call.toolCallId, ...(signal ? { signal } : {}) },
            );
      if (outcome.ok && outcome.page) {
        // The page the model sees: cut to what is left of the step budget after the browser state.
        const after = stepContext.browserState(
          deps.browser.clientId ? deps.snapshotOf(deps.browser.clientId) : undefined,
          deps.browser.tabId,
        ).stateMessage;
        currentPage = stepContext.fitPage(outcome.page, after, call.name, outcome.result ?? {});
        outcome.result = { ...outcome.result, page: currentPage };
      }
      const toolResult = outcome.ok
        ? toolResultOk(
            call.toolCallId,
            call.name,
            outcome.result ?? {},
            outcome.warnings ? { warnings: outcome.warnings } : {},
          )
        : toolResultError(call.toolCallId, call.name, {
            code: outcome.error?.code ?? 'INTERNAL',
            message: outcome.error?.message ?? 'the tool failed',
            retryable: outcome.error?.retryable ?? false,
          });
      deps.onTrace?.({ kind: 'tool_result', toolResult });
      failure = nextTurnFailure(failure, call.name, outcome);
      if (outcome.ok && PAGE_PAYLOADS.some((key) => outcome.result?.[key] !== undefined))
        livePages = supersedePages(livePages);
      const toolJson = JSON.stringify(toolResult);
      const pageData = deps.guard && outcome.ok && PAGE_PAYLOADS.some((key) => outcome.result?.[key] !== undefined);
      const toolMessage: LlmMessage = {
        role: 'tool',
        toolCallId: call.toolCallId,
        name: call.name,
        content: pageData ? markUntrusted(toolJson, boundary) : toolJson,
      };
      messages.push(toolMessage);
      if (hasPagePayload(toolMessage)) livePages.push(toolMessage);
      if (!outcome.ok && outcome.error) {
        if (FAILS_TASK.has(outcome.error.code)) throw new TurnFailure(outcome.error);
        if (STOPS_TURN.has(outcome.error.code)) stopTurn = outcome.error;
      }
    }
    if (stopTurn) {
      // The cause reaches the web with the task's `error` status (task-session.ts); no event comes
      // between the text so far and this message, so it stays in the open segment.
      say(`${text ? '\n\n' : ''}${stopTurn.message}`);
      failure = stopTurn;
      break;
    }
  }
  if (stoppedAtLimit) failure = stepLimitFailure(deps.stepLimit);
  delta('', true);
  return { text, segments, steps, stoppedAtLimit, failure };
}

/** The stored assistant message's place in the task's order: its first segment's seq, and every segment when there are several. */
export function assistantOrder(segments: TurnResult['segments']): {
  seq?: number;
  segments?: Array<{ seq: number; text: string }>;
} {
  if (segments.length === 0) return {};
  return {
    seq: segments[0]!.seq,
    ...(segments.length > 1 ? { segments: segments.map((s) => ({ seq: s.seq, text: s.text })) } : {}),
  };
}

const PAGE_PAYLOADS = ['page', 'pageText', 'elementsPage'] as const;

const hasPagePayload = (message: LlmMessage) =>
  message.role === 'tool' && PAGE_PAYLOADS.some((key) => message.content.includes(`"${key}"`));

/**
 * Keeps only the newest page payload in the conversation: the older tool results that still hold
 * one lose their page, text window or element list. Only those are rewritten, so a step's cost
 * does not grow with the length of the turn. Answers the messages that still hold one (none).
 */
function supersedePages(live: LlmMessage[]): LlmMessage[] {
  for (const message of live) {
    try {
      const marked = unmarkUntrusted(message.content);
      const parsed = JSON.parse(marked ? marked.inner : message.content) as { result?: Record<string, unknown> };
      let changed = false;
      for (const key of PAGE_PAYLOADS) {
        if (parsed.result?.[key] && typeof parsed.result[key] === 'object') {
          parsed.result[key] = '(superseded by a later page read)';
          changed = true;
        }
      }
      if (changed) message.content = marked ? marked.remark(JSON.stringify(parsed)) : JSON.stringify(parsed);
    } catch {
      // not JSON: leave as is
    }
  }
  return [];
}
