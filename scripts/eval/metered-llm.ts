// Wraps the LLM gateway the server uses so the eval can count, per task: LLM steps, prompt and
// completion tokens (the endpoint's usage when it reports one, else o200k counts of what was
// sent and streamed back), and the page-context tokens of every step (the newest page-carrying
// tool result plus the browser-state message: the part held to MIMO_CONTEXT_TOKENS).
import { countMessageTokens, countTokens } from '../../runtime/agent/token-count.ts';
import type { LlmEvent, LlmGateway, LlmMessage } from '../../runtime/llm/llm-types.ts';

export interface TaskMeter {
  steps: number;
  promptTokens: number;
  completionTokens: number;
  /** Page-context tokens of each step, in order. */
  contextTokens: number[];
  /** True when the endpoint reported usage (false: counted here with o200k). */
  reportedUsage: boolean;
}

export function pageContextTokensOf(messages: LlmMessage[]): number {
  const state = messages.find((m) => m.role === 'system' && m.content.startsWith('Current browser state'));
  const pages = messages.filter((m) => m.role === 'tool' && /"(?:page|pageText|elementsPage)":\{/.test(m.content));
  return (state ? countTokens(state.content) : 0) + (pages.length ? countTokens(pages.at(-1)!.content) : 0);
}

export function meteredLlm(inner: LlmGateway): LlmGateway & { meterOf(taskId: string): TaskMeter } {
  const meters = new Map<string, TaskMeter>();
  const meterOf = (taskId: string): TaskMeter => {
    let meter = meters.get(taskId);
    if (!meter)
      meters.set(
        taskId,
        (meter = { steps: 0, promptTokens: 0, completionTokens: 0, contextTokens: [], reportedUsage: false }),
      );
    return meter;
  };
  return {
    kind: inner.kind,
    model: inner.model,
    meterOf,
    async *streamChat(input) {
      const meter = meterOf(input.taskId);
      meter.steps++;
      meter.contextTokens.push(pageContextTokensOf(input.messages));
      let streamed = '';
      let done: Extract<LlmEvent, { type: 'done' }> | undefined;
      for await (const event of inner.streamChat(input)) {
        if (event.type === 'delta') streamed += event.content;
        else if (event.type === 'tool_call')
          streamed += JSON.stringify({ name: event.name, arguments: event.arguments });
        else if (event.type === 'done') done = event;
        yield event;
      }
      const reported = done?.usage;
      if (reported) {
        meter.reportedUsage = true;
        meter.promptTokens += reported.promptTokens;
        meter.completionTokens += reported.completionTokens;
      } else {
        meter.promptTokens += countMessageTokens(input.messages) + countTokens(input.tools);
        meter.completionTokens += countTokens(streamed);
      }
    },
  };
}
