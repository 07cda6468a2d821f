// Which LLM the server uses, from the environment:
//   MIMO_PROVIDER=anthropic, or ANTHROPIC_API_KEY set: Anthropic's Messages API (@anthropic-ai/sdk);
//   MIMO_PROVIDER=ollama: a local Ollama through its OpenAI-compatible API (OLLAMA_BASE_URL,
//     default http://127.0.0.1:11434/v1; MIMO_OLLAMA_KEEP_ALIVE, e.g. "30m", keeps the model loaded);
//   MIMO_PROVIDER=openai, or OPENAI_API_KEY / OPENAI_BASE_URL set: any OpenAI-compatible endpoint
//     (OpenAI, vLLM, llama.cpp server, LM Studio, ...);
//   otherwise (or MIMO_PROVIDER=offline): the embedded offline planner (no key needed).
// MIMO_MODEL names the model for every provider.
import { createAnthropicGateway } from './llm/anthropic-gateway.ts';
import { createOpenAiGateway } from './llm/openai-gateway.ts';
import { createOfflinePlanner } from './llm/offline-planner/index.ts';
import type { LlmGateway } from './llm/llm-types.ts';

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
export const DEFAULT_OLLAMA_MODEL = 'llama3.1';
export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

export const LLM_PROVIDERS = ['offline', 'openai', 'anthropic', 'ollama'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

export interface LlmHooks {
  /** Every raw chunk or stream event as received, for the recorder. */
  onChunk?: (chunk: unknown, info: { taskId: string; attempt: number }) => void;
}

/** The provider the environment asks for; an unknown MIMO_PROVIDER is an error, never a silent default. */
export function llmProviderOf(env: Record<string, string | undefined>): LlmProvider {
  const named = env.MIMO_PROVIDER?.trim().toLowerCase();
  if (named) {
    if ((LLM_PROVIDERS as readonly string[]).includes(named)) return named as LlmProvider;
    throw new Error(`MIMO_PROVIDER=${env.MIMO_PROVIDER} is not a provider; use one of ${LLM_PROVIDERS.join(', ')}`);
  }
  if (env.ANTHROPIC_API_KEY) return 'anthropic';
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return 'openai';
  return 'offline';
}

export function llmFromEnv(env: Record<string, string | undefined>, hooks: LlmHooks = {}): LlmGateway {
  const provider = llmProviderOf(env);
  switch (provider) {
    case 'offline':
      return createOfflinePlanner({});
    case 'anthropic': {
      if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_BASE_URL)
        throw new Error('MIMO_PROVIDER=anthropic needs ANTHROPIC_API_KEY');
      return createAnthropicGateway({
        apiKey: env.ANTHROPIC_API_KEY || 'not-needed',
        ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
        model: env.MIMO_MODEL || DEFAULT_ANTHROPIC_MODEL,
        ...(hooks.onChunk ? { onEvent: hooks.onChunk } : {}),
      });
    }
    case 'ollama':
      return createOpenAiGateway({
        apiKey: 'ollama',
        baseURL: env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL,
        model: env.MIMO_MODEL || DEFAULT_OLLAMA_MODEL,
        ...(env.MIMO_OLLAMA_KEEP_ALIVE ? { extraBody: { keep_alive: env.MIMO_OLLAMA_KEEP_ALIVE } } : {}),
        ...(hooks.onChunk ? { onChunk: hooks.onChunk } : {}),
      });
    case 'openai':
      return createOpenAiGateway({
        apiKey: env.OPENAI_API_KEY || 'not-needed',
        ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
        model: env.MIMO_MODEL || DEFAULT_MODEL,
        ...(hooks.onChunk ? { onChunk: hooks.onChunk } : {}),
      });
  }
}

/** One line for the start banner: which model, through what. */
export function describeLlm(llm: LlmGateway, env: Record<string, string | undefined>): string {
  if (llm.kind === 'offline') {
    return 'the embedded offline planner. For a real model set ANTHROPIC_API_KEY, OPENAI_API_KEY (OPENAI_BASE_URL for any OpenAI-compatible endpoint) or MIMO_PROVIDER=ollama; MIMO_MODEL names the model.';
  }
  if (llm.kind === 'anthropic') return `${llm.model} via ${env.ANTHROPIC_BASE_URL ?? 'the Anthropic API'}`;
  const provider = llmProviderOf(env);
  return `${llm.model} via ${provider === 'ollama' ? env.OLLAMA_BASE_URL || DEFAULT_OLLAMA_BASE_URL : (env.OPENAI_BASE_URL ?? 'the OpenAI API')}`;
}
