// The stdio face of /mcp: desktop MCP clients (Claude Desktop, Cursor, VS Code) launch a server as
// a command and speak JSON-RPC over its stdin/stdout. The bridge relays every message, both ways,
// between the SDK's StdioServerTransport and a Streamable HTTP client of a running Mimo's /mcp, so
// the tools, profiles, sessions and URL policy are exactly those of /mcp, and a client's
// `notifications/cancelled` reaches the server like any other message.
import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioBridgeOptions {
  /** The Mimo server's base URL (its /mcp is used). */
  url: string;
  token: string | undefined;
  stdin?: Readable;
  stdout?: Writable;
  /** Diagnostics (stderr in the CLI; stdout belongs to the protocol). */
  log?: (line: string) => void;
}

export interface StdioBridge {
  /** Resolves when either side closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

const isInitializeResult = (
  message: JSONRPCMessage,
): message is JSONRPCMessage & { result: { protocolVersion: string } } =>
  'result' in message && typeof (message.result as { protocolVersion?: unknown })?.protocolVersion === 'string';

export async function startStdioBridge(options: StdioBridgeOptions): Promise<StdioBridge> {
  const log = options.log ?? (() => {});
  const headers: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  const http = new StreamableHTTPClientTransport(new URL('/mcp', options.url), { requestInit: { headers } });
  const stdio = new StdioServerTransport(options.stdin, options.stdout);
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  let closing = false;

  async function close(): Promise<void> {
    if (closing) return closed;
    closing = true;
    await Promise.allSettled([http.close(), stdio.close()]);
    finish();
  }

  /** A request the server could not take is answered to the client as a JSON-RPC error, never dropped. */
  function failRequest(message: JSONRPCMessage, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    log(`mimo mcp: ${text}`);
    if ('id' in message && 'method' in message) {
      void stdio.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32000, message: `Mimo server at ${options.url}: ${text}` },
      });
    }
  }

  http.onmessage = (message) => {
    if (isInitializeResult(message)) http.setProtocolVersion(message.result.protocolVersion);
    void stdio.send(message);
  };
  http.onerror = (error) => log(`mimo mcp: ${error.message}`);
  http.onclose = () => void close();
  stdio.onmessage = (message) => {
    http.send(message).catch((error: unknown) => failRequest(message, error));
  };
  stdio.onerror = (error) => log(`mimo mcp: stdin: ${error.message}`);
  stdio.onclose = () => void close();
  options.stdin?.once('end', () => void close());

  await http.start();
  await stdio.start();
  return { closed, close };
}
