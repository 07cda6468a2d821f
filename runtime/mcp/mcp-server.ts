// One MCP protocol server over a tool table. We use the SDK's low-level `Server` (not McpServer)
// on purpose: our tools carry JSON Schemas generated from their zod definitions
// (tools/tool-definition.ts, `z.toJSONSchema`) and must answer bad input in their own seed
// formats (003 §7.2 / 004 §3.3), while McpServer would replace that with its own
// "Input validation error" text. tools/list and tools/call are the only capabilities.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpTool, ToolCallContext } from './tools/tool-definition.ts';
import type { TrustLevel } from './templates/template-types.ts';

export const MCP_SERVER_NAME = 'mimo';

export function createMcpProtocolServer(
  tools: readonly McpTool[],
  context: { trustLevel: TrustLevel; version: string; instructions?: string },
): Server {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see the header: the low-level server is deliberate
  const server = new Server(
    { name: MCP_SERVER_NAME, version: context.version },
    {
      capabilities: { tools: { listChanged: false } },
      ...(context.instructions ? { instructions: context.instructions } : {}),
    },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      outputSchema: tool.outputSchema as { type: 'object'; [key: string]: unknown },
      ...(tool.annotations ? { annotations: { title: tool.title, ...tool.annotations } } : {}),
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool "${request.params.name}"; tools/list has the available ones`,
      );
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolCallContext = {
      trustLevel: context.trustLevel,
      signal: extra.signal,
      ...(extra.sessionId ? { clientSessionId: extra.sessionId } : {}),
      ...(progressToken !== undefined
        ? {
            progress: (progress: number, total?: number, message?: string) =>
              extra.sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress,
                  ...(total !== undefined ? { total } : {}),
                  ...(message ? { message } : {}),
                },
              }),
          }
        : {}),
    };
    return tool.call(request.params.arguments ?? {}, ctx);
  });

  return server;
}
