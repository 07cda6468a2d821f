// A local Anthropic Messages API endpoint for tests: POST /v1/messages with `stream: true`
// answered as Anthropic's SSE (`event: <type>\ndata: <json>\n\n`, message_start ...
// message_stop), so the official `@anthropic-ai/sdk` parses what it would parse from Anthropic.
// Faults: an HTTP error status with Anthropic's error body and headers (429 + retry-after), an
// `error` event inside the stream, a delay before the answer, a stall, a socket destroyed mid-way.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AnthropicSseEvent = { type: string; [key: string]: unknown };

export type MockAnthropicResponse =
  | { events: AnthropicSseEvent[]; delayMs?: number; stallAfterEvents?: number; breakAfterEvents?: number }
  | { status: number; errorType: string; message: string; headers?: Record<string, string> };

export interface MockAnthropicRequest {
  index: number;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export interface MockAnthropicServer {
  /** Base URL for `new Anthropic({ baseURL })`. */
  url: string;
  requests: MockAnthropicRequest[];
  close(): Promise<void>;
}

/** The events of one streamed answer: optional text, then tool calls, with usage. */
export function anthropicAnswer(parts: {
  text?: string[];
  tools?: Array<{ id: string; name: string; json: string[] }>;
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  stopReason?: string;
}): AnthropicSseEvent[] {
  const usage = parts.usage ?? { input: 10, output: 5 };
  const events: AnthropicSseEvent[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_mock',
        type: 'message',
        role: 'assistant',
        model: 'claude-mock',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_read_input_tokens: usage.cacheRead ?? 0,
          cache_creation_input_tokens: usage.cacheWrite ?? 0,
        },
      },
    },
    { type: 'ping' },
  ];
  let index = 0;
  if (parts.text?.length) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const text of parts.text)
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  for (const tool of parts.tools ?? []) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} },
    });
    for (const partial of tool.json)
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
    events.push({ type: 'content_block_stop', index });
    index++;
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: parts.stopReason ?? (parts.tools?.length ? 'tool_use' : 'end_turn'), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  events.push({ type: 'message_stop' });
  return events;
}

export async function startMockAnthropicServer(options: {
  script: MockAnthropicResponse[] | ((request: MockAnthropicRequest) => MockAnthropicResponse);
}): Promise<MockAnthropicServer> {
  const requests: MockAnthropicRequest[] = [];
  const open = new Set<ServerResponse>();
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    if (request.method !== 'POST' || !request.url?.startsWith('/v1/messages')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }));
      return;
    }
    const info: MockAnthropicRequest = {
      index: requests.length,
      body: JSON.parse(raw) as Record<string, unknown>,
      headers: request.headers,
    };
    requests.push(info);
    const script = options.script;
    const reply = typeof script === 'function' ? script(info) : (script[info.index] ?? script[script.length - 1]!);
    if ('status' in reply) {
      response.writeHead(reply.status, {
        'content-type': 'application/json',
        'request-id': `req_${info.index}`,
        ...reply.headers,
      });
      response.end(JSON.stringify({ type: 'error', error: { type: reply.errorType, message: reply.message } }));
      return;
    }
    if (reply.delayMs) await wait(reply.delayMs);
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': `req_${info.index}`,
    });
    open.add(response);
    response.on('close', () => open.delete(response));
    for (const [n, event] of reply.events.entries()) {
      if (reply.stallAfterEvents === n) return; // stays open, silent
      if (reply.breakAfterEvents === n) {
        response.socket?.destroy();
        return;
      }
      // Each event leaves before the next step, so a break comes after what was written.
      await new Promise<void>((resolve) =>
        response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`, () => resolve()),
      );
    }
    response.end();
  }

  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
