// Which LLM the server uses: an OpenAI-compatible endpoint when OPENAI_API_KEY or
// OPENAI_BASE_URL is set, otherwise the embedded offline planner (no key needed).
import { createOpenAiGateway } from './llm/openai-gateway.ts';
import { createOfflinePlanner } from './llm/offline-planner/index.ts';
import type { LlmGateway } from './llm/llm-types.ts';

export const DEFAULT_MODEL = 'gpt-4o-mini';

export function llmFromEnv(
  env: Record<string, string | undefined>,
  hooks: { onChunk?: (chunk: unknown, info: { taskId: string; attempt: number }) => void } = {},
): LlmGateway {
  const apiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL;
  if (!apiKey && !baseURL) return createOfflinePlanner({});
  return createOpenAiGateway({
    apiKey: apiKey || 'not-needed',
    ...(baseURL ? { baseURL } : {}),
    model: env.MIMO_MODEL || DEFAULT_MODEL,
    ...(hooks.onChunk ? { onChunk: hooks.onChunk } : {}),
  });
}
