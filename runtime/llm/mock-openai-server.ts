// A local OpenAI-compatible endpoint for tests: POST /v1/chat/completions with `stream: true`
// answered as SSE (`data: {chunk}\n\n` ... `data: [DONE]\n\n`) from a script, so the real
// `openai` SDK parses what it would parse from a provider. Faults: an HTTP error status, a delay
// before the response, a delay between chunks, a socket destroyed after n chunks.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chunk is sent as `data: JSON.stringify(chunk)`; a string is sent verbatim after `data: ` (for malformed SSE). */
export type MockChunk = object | string;

export type MockResponse =
  | MockChunk[]
  | {
      chunks?: MockChunk[];
      /** Wait this long before answering at all (headers included). */
      delayMs?: number;
      /** Wait this long before each chunk. */
      chunkDelayMs?: number;
      /** Destroy the socket right after this many chunks were written (no [DONE]). */
      breakAfterChunks?: number;
      /** Keep the connection open, silent, after this many chunks (until the client leaves or close()). */
      stallAfterChunks?: number;
      /** End the response without `data: [DONE]`. */
      omitDone?: boolean;
    }
  | {
      /** Answer with this HTTP status and a JSON error body instead of a stream. */
      status: number;
      body?: unknown;
      delayMs?: number;
    };

export interface MockRequestInfo {
  /** 0-based index among the streaming requests (the ones the script answers). */
  index: number;
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

export type MockScript = MockResponse[] | ((request: MockRequestInfo) => MockResponse | Promise<MockResponse>);

export interface MockOpenAiServer {
  /** Base URL including /v1, for `new OpenAI({ baseURL })`. */
  url: string;
  /** Parsed bodies of every chat-completion request (streaming or not), in arrival order. */
  requests: Array<Record<string, unknown>>;
  /** Headers of the same requests (e.g. to check the API key). */
  requestHeaders: Array<IncomingMessage['headers']>;
  close(): Promise<void>;
}

export async function startMockOpenAiServer(options: { script: MockScript; host?: string }): Promise<MockOpenAiServer> {
  const requests: Array<Record<string, unknown>> = [];
  const requestHeaders: Array<IncomingMessage['headers']> = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let served = 0;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function pickResponse(info: MockRequestInfo): Promise<MockResponse> {
    if (typeof options.script === 'function') return options.script(info);
    const scripted = options.script[info.index];
    return (
      scripted ?? {
        status: 500,
        body: errorBody(`mock OpenAI server: no scripted response for request #${info.index + 1}`, 'server_error'),
      }
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(
        res,
        404,
        errorBody(`mock OpenAI server: no route ${req.method} ${path}`, 'invalid_request_error'),
      );
    }
    const text = await readBody(req);
    let body: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      body = value as Record<string, unknown>;
    } catch {
      return sendJson(
        res,
        400,
        errorBody('mock OpenAI server: the body is not a JSON object', 'invalid_request_error'),
      );
    }
    requests.push(body);
    requestHeaders.push(req.headers);
    if (body.stream !== true)
      return sendJson(
        res,
        400,
        errorBody('mock OpenAI server: only stream: true is supported', 'invalid_request_error'),
      );
    const info: MockRequestInfo = { index: served++, body, headers: req.headers };
    const response = await pickResponse(info);
    const spec = Array.isArray(response) ? { chunks: response } : response;
    if (spec.delayMs) await wait(spec.delayMs);
    if (res.destroyed) return;
    if ('status' in spec)
      return sendJson(
        res,
        spec.status,
        spec.body ??
          errorBody(
            `mock OpenAI server: scripted HTTP ${spec.status}`,
            spec.status === 429 ? 'rate_limit_exceeded' : 'server_error',
          ),
      );
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunks = spec.chunks ?? [];
    for (const [index, chunk] of chunks.entries()) {
      if (spec.chunkDelayMs) await wait(spec.chunkDelayMs);
      if (res.destroyed) return;
      await write(res, `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
      if (spec.breakAfterChunks !== undefined && index + 1 >= spec.breakAfterChunks) {
        res.socket?.destroy();
        return;
      }
      if (spec.stallAfterChunks !== undefined && index + 1 >= spec.stallAfterChunks) return;
    }
    if (spec.stallAfterChunks !== undefined) return;
    if (spec.breakAfterChunks !== undefined) {
      res.socket?.destroy();
      return;
    }
    if (!spec.omitDone) await write(res, 'data: [DONE]\n\n');
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, errorBody(`mock OpenAI server failed: ${(error as Error).message}`, 'server_error'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1`,
    requests,
    requestHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function errorBody(message: string, type: string) {
  return { error: { message, type, param: null, code: type } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(data, () => resolve());
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
