// One MCP tool: name, JSON Schemas for input and output (generated from zod, draft-07, which the
// SDK client's validator reads), and a handler. Input is parsed here, so a refusal comes back in
// the tool's own error format (seed 003 §7.2 or seed 004 §3.3), never as a protocol error.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { jsonSchemaOf } from '../templates/template-catalog.ts';
import type { TrustLevel } from '../templates/template-types.ts';
import { seedError, type SeedError } from './tool-errors.ts';

export interface ToolCallContext {
  trustLevel: TrustLevel;
  /** Fires when the client cancels the request or the connection goes away. */
  signal: AbortSignal;
  /** The MCP session id of the client making the call (absent for a one-shot request without `initialize`). */
  clientSessionId?: string;
  /** Sends notifications/progress when the client asked for them (a progressToken). */
  progress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** run_task_template created this run (MIMO_RECORD_DIR: the run's file starts; mcp-run-recording.ts). */
  runCreated?: (run: { runId: string; sessionId: string }) => void;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  call(args: unknown, ctx: ToolCallContext): Promise<CallToolResult>;
}

/** Success: the JSON as text (content[0]) and as structuredContent. */
export function okResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A seed 003 error: isError, the error JSON as text, no structuredContent (it would not match the output schema). */
export function errorResult(error: SeedError): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(error) }], isError: true };
}

/** zod issues -> INVALID_PARAMETER with one entry per problem. */
export function invalidParameters(toolName: string, error: z.ZodError): SeedError {
  return seedError('INVALID_PARAMETER', `invalid arguments for ${toolName}`, {
    issues: error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(arguments)',
      message: issue.message,
    })),
  });
}

/** A seed 003 tool: zod input -> handler -> structured result or seed error. */
export function defineSeedTool<I extends z.ZodType, O extends z.ZodType>(spec: {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations?: McpTool['annotations'];
  handle(
    args: z.infer<I>,
    ctx: ToolCallContext,
  ): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; error: SeedError }>;
}): McpTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: jsonSchemaOf(spec.input, 'input'),
    outputSchema: jsonSchemaOf(spec.output, 'output'),
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
    async call(args, ctx) {
      const parsed = spec.input.safeParse(args ?? {});
      if (!parsed.success) return errorResult(invalidParameters(spec.name, parsed.error));
      try {
        const out = await spec.handle(parsed.data, ctx);
        return out.ok ? okResult(out.value) : errorResult(out.error);
      } catch (error) {
        return errorResult(
          seedError(
            'EXECUTION_ERROR',
            `${spec.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      }
    },
  };
}
