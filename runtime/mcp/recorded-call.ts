// One MCP tool call as MIMO_RECORD_DIR writes it, shared by the browser-shell session recording
// (mcp-call-recording.ts) and the template-run recording (mcp-run-recording.ts): `mcp_call` once
// the file it belongs to is known (`begin`), `mcp_cancel` when the client cancels it (recorded when
// it happens, so a replay cancels at the same point; at `begin` if it came first), and `mcp_result`
// with the arguments and what the call returned or threw when it ends (arguments written with the
// result, so text it typed into a password field is a known secret by then and redacted). A call
// that never learned its file is not recorded.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecordedEntry } from '../recorder/session-recorder.ts';
import type { McpTool, ToolCallContext } from './tools/tool-definition.ts';

export interface RecordedCall {
  /** The call belongs to the file `into` (a task id, or a run id): its `mcp_call` is written there. */
  begin(into: string): void;
  /** Runs the call (with `context`, default `ctx`), recording its cancel and its result. */
  run(args: unknown, ctx: ToolCallContext, context?: ToolCallContext): Promise<CallToolResult>;
}

export function createRecordedCall(
  sink: { record(file: string, entry: RecordedEntry): void },
  callId: string,
  tool: McpTool,
): RecordedCall {
  let file: string | undefined;
  let canceled = false;
  const cancel = () => {
    canceled = true;
    if (file) sink.record(file, { kind: 'mcp_cancel', callId, tool: tool.name });
  };
  return {
    begin(into) {
      file = into;
      sink.record(into, { kind: 'mcp_call', callId, tool: tool.name });
      if (canceled) sink.record(into, { kind: 'mcp_cancel', callId, tool: tool.name });
    },
    async run(args, ctx, context = ctx) {
      if (ctx.signal.aborted) cancel();
      else ctx.signal.addEventListener('abort', cancel, { once: true });
      let result: unknown;
      try {
        result = await tool.call(args, context);
        return result as CallToolResult;
      } catch (error) {
        result = { error: error instanceof Error ? error.message : String(error) };
        throw error;
      } finally {
        ctx.signal.removeEventListener('abort', cancel);
        if (file)
          sink.record(file, {
            kind: 'mcp_result',
            callId,
            tool: tool.name,
            arguments: args,
            result,
            ...(canceled ? { canceled: true as const } : {}),
          });
      }
    },
  };
}
