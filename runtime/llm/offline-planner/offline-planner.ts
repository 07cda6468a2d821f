// The embedded LlmGateway when no LLM endpoint is configured (kind 'offline'): a deterministic,
// rule-based planner that reads the request and the page context and answers with one tool call
// or a final answer, streamed as several deltas. It says what it is in every answer.
import type { LlmClock } from '../llm-clock.ts';
import type { LlmEvent, LlmGateway, StreamChatInput } from '../llm-types.ts';
import { STEP_PREFIX } from './answers.ts';
import { planNextStep } from './next-step.ts';
import { streamPieces } from './stream-text.ts';

export const OFFLINE_PLANNER_MODEL = 'mimo-offline-planner';

export interface OfflinePlannerOptions {
  /** Accepted for symmetry with the OpenAI gateway; planning does not depend on time. */
  clock?: LlmClock;
}

export function createOfflinePlanner(_options: OfflinePlannerOptions = {}): LlmGateway {
  async function* streamChat(input: StreamChatInput): AsyncGenerator<LlmEvent, void> {
    const aborted: LlmEvent = {
      type: 'error',
      code: 'LLM_ABORTED',
      message: 'The offline planner call was aborted by the caller.',
      retryable: false,
    };
    if (input.signal?.aborted) {
      yield aborted;
      return;
    }
    let planned: ReturnType<typeof planNextStep>;
    try {
      planned = planNextStep(input);
    } catch (error) {
      yield {
        type: 'error',
        code: 'LLM_INTERNAL',
        message: `The offline planner failed: ${(error as Error)?.message ?? String(error)}`,
        retryable: false,
      };
      return;
    }
    const { decision } = planned;
    const text = decision.kind === 'tool' ? `${STEP_PREFIX}${decision.narration}\n` : decision.text;
    for (const piece of streamPieces(text)) {
      if (input.signal?.aborted) {
        yield aborted;
        return;
      }
      yield { type: 'delta', content: piece };
    }
    if (decision.kind === 'tool') {
      yield { type: 'tool_call', toolCallId: planned.toolCallId, name: decision.name, arguments: decision.arguments };
      yield { type: 'done', finishReason: 'tool_calls' };
    } else {
      yield { type: 'done', finishReason: 'stop' };
    }
  }
  return { kind: 'offline', model: OFFLINE_PLANNER_MODEL, streamChat };
}
