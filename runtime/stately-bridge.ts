// MIMO_INSPECT=stately: forwards inspection events to the Stately Inspector. @statelyai/inspect's
// own bridge server listens on every interface, asks no token and relays whatever any client
// sends, so we run our own small bridge instead and only use the library's event serializer
// (`createInspector` with an adapter of ours):
// - it binds to MIMO_HOST (loopback by default), behind the same request gate as the server
//   (Host and Origin allowlists);
// - the page and its WebSocket need the token (`?token=`, as the one-click URL of the web UI);
// - it only sends: nothing a client writes is relayed;
// - events are redacted (runtime/redaction) before they leave the process.
// The page is a Hono app (gate middleware, then the token middleware reading `?token=` too); the
// WebSocket upgrade is judged by the same gate and token check on the raw request.
// The page embeds the hosted Stately Inspector (https://stately.ai/inspect) in an iframe and
// posts it the events, addressed to that origin only.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import type { InspectionEvent } from 'xstate';
import { WebSocketServer, type WebSocket } from 'ws';
import { presentedToken, sameToken, TOKEN_HEADER, tokenRequired } from '../transport/mimo/access-token-check.ts';
import { requestGateMiddleware } from './http/gate-middleware.ts';
import { judgeNodeRequest } from './http/node-gate.ts';
import { unparsableRequest } from './http/unparsable-request.ts';
import { BEARER_CHALLENGE, tokenAuth } from './http/token-auth.ts';
import { createRequestGate, type RequestGateOptions } from './http/request-gate.ts';
import { redactDeep, type SecretRegistry } from './redaction/redact.ts';

const INSPECTOR_URL = 'https://stately.ai/inspect';
const KEEP = 200;

export interface StatelyBridge {
  url: string;
  forward(event: InspectionEvent): void;
  close(): void;
}

function bridgePage(inspectorUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Mimo: Stately Inspector</title>
<meta name="referrer" content="no-referrer">
<style>*{margin:0;padding:0}html,body{height:100%}iframe{width:100%;height:100%;border:none}</style></head>
<body><iframe id="inspector" src="${inspectorUrl}"></iframe><script>
const target = ${JSON.stringify(new URL(inspectorUrl).origin)};
const token = new URLSearchParams(location.search).get('token') || sessionStorage.getItem('mimo.stately.token') || '';
sessionStorage.setItem('mimo.stately.token', token);
history.replaceState(null, '', location.pathname);
const iframe = document.getElementById('inspector');
const buffer = []; let connected = false;
addEventListener('message', (e) => {
  if (e.origin === target && e.data && e.data.type === '@statelyai.connected') {
    connected = true; buffer.splice(0).forEach((d) => iframe.contentWindow.postMessage(d, target));
  }
});
const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/?token=' + encodeURIComponent(token));
ws.onmessage = (m) => { const d = JSON.parse(m.data); if (connected) iframe.contentWindow.postMessage(d, target); else buffer.push(d); };
</script></body></html>`;
}

function tokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers[TOKEN_HEADER.toLowerCase()];
  const given = presentedToken(req.headers.authorization, typeof header === 'string' ? header : undefined);
  return given ?? (new URL(req.url ?? '/', 'http://bridge').searchParams.get('token') || undefined);
}

/** The bridge page behind the gate and the token (`?token=` accepted: the page is opened by a link). */
function bridgeApp(gate: ReturnType<typeof createRequestGate>, token: string | undefined, page: string): Hono {
  const app = new Hono();
  app.use('*', requestGateMiddleware(gate));
  app.use(
    '*',
    tokenAuth({
      token,
      query: 'token',
      refuse: (c) =>
        c.json(
          {
            ok: false,
            error: { code: 'UNAUTHORIZED', message: 'open the Stately bridge with ?token=<the Mimo token>' },
          },
          401,
          BEARER_CHALLENGE,
        ),
    }),
  );
  const headers = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' };
  app.get('/', (c) => c.html(page, 200, headers));
  return app;
}

export async function startStatelyBridge(options: {
  port: number;
  host: string;
  token: string | undefined;
  gate: RequestGateOptions;
  secrets?: SecretRegistry;
  inspectorUrl?: string;
}): Promise<StatelyBridge> {
  const { createInspector } = await import('@statelyai/inspect');
  const gate = createRequestGate({ ...options.gate, publicBaseUrl: undefined, corsOrigins: [] });
  const authorized = (req: IncomingMessage) => !tokenRequired(options.token) || sameToken(tokenOf(req), options.token);
  const app = bridgeApp(gate, options.token, bridgePage(options.inspectorUrl ?? INSPECTOR_URL));
  const http = createServer(getRequestListener(app.fetch, { errorHandler: unparsableRequest() }));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  const clients = new Set<WebSocket>();
  const recent: string[] = [];
  http.on('upgrade', (req, socket, head) => {
    const refusal = judgeNodeRequest(gate, req);
    if (refusal || !authorized(req)) {
      socket.on('error', () => {});
      socket.end(
        `HTTP/1.1 ${refusal ? refusal.status : 401} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      for (const line of recent) ws.send(line);
      ws.on('message', () => {}); // send-only: nothing from a client is relayed
      ws.on('close', () => clients.delete(ws));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const inspector = createInspector({
    send(event: unknown) {
      const redacted = redactDeep(event, { secrets: options.secrets }) as Record<string, unknown>;
      // The actor's definition travels as a JSON string (context defaults included): redact inside it too.
      if (typeof redacted.definition === 'string') {
        try {
          redacted.definition = JSON.stringify(
            redactDeep(JSON.parse(redacted.definition), { secrets: options.secrets, maxDepth: 64 }),
          );
        } catch {
          redacted.definition = undefined;
        }
      }
      const line = JSON.stringify(redacted);
      recent.push(line);
      if (recent.length > KEEP) recent.shift();
      for (const ws of clients) ws.send(line);
    },
    start() {},
    stop() {},
  } as never);
  const port = (http.address() as AddressInfo).port;
  const shownHost =
    options.host === '0.0.0.0' || options.host === '::'
      ? 'localhost'
      : options.host.includes(':')
        ? `[${options.host}]`
        : options.host;
  return {
    url: `http://${shownHost}:${port}/`,
    forward(event) {
      inspector.inspect.next?.(event);
    },
    close() {
      for (const ws of clients) ws.terminate();
      wss.close();
      http.close();
    },
  };
}
