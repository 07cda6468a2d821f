export * from './llm-types.ts';
export { llmErrorCodes, llmRetryable, llmFailure, type LlmErrorCode, type LlmFailure } from './llm-error-codes.ts';
export { createSystemClock, type LlmClock } from './llm-clock.ts';
export { createOpenAiGateway, type OpenAiGatewayOptions, type OpenAiChunkInfo } from './openai-gateway.ts';
export { classifyOpenAiError } from './openai-error-classify.ts';
export { toOpenAiMessages, toOpenAiTools } from './openai-messages.ts';
export { createToolCallAccumulator, parseToolArguments } from './tool-call-accumulator.ts';
export { createOfflinePlanner, OFFLINE_PLANNER_MODEL, type OfflinePlannerOptions } from './offline-planner/index.ts';
export {
  startMockOpenAiServer,
  type MockOpenAiServer,
  type MockResponse,
  type MockScript,
  type MockChunk,
  type MockRequestInfo,
} from './mock-openai-server.ts';
export {
  chunksFromRecording,
  completionChunks,
  finishChunk,
  textChunks,
  toolCallChunks,
  usageChunk,
  type ChunkMeta,
  type MockToolCall,
  type RecordingParseResult,
} from './mock-openai-chunks.ts';
