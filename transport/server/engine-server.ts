// Engine.IO v4 server attached to a Node `http.Server` at one path: answers long-polling
// requests and WebSocket upgrades, verifies them as the reference engine.io server does,
// and hands each new session to `onSession`.
import { systemTransportClock } from './transport-clock.ts';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';
import {
  EngineErrorCode,
  engineErrorMessages,
  parseEngineQuery,
  refuseUpgrade,
  refuseUpgradeRaw,
  respondEngineError,
} from './engine-errors.ts';
import { EngineSession, type EngineSessionOptions } from './engine-session.ts';
import { PollingTransport } from './polling-transport.ts';
import { WebSocketTransport } from './websocket-transport.ts';

export interface EngineServerOptions extends Partial<EngineSessionOptions> {
  path?: string;
  transports?: Array<'polling' | 'websocket'>;
  /** Origins allowed for cross-origin polling requests (echoed without credentials). */
  corsOrigins?: string[];
  /**
   * Gate on the raw request (Host, Origin), asked for every polling request (preflights too)
   * and every WebSocket upgrade before any session lookup or creation: false -> 403 FORBIDDEN
   * (engine error 4); a refusal object -> that status and body.
   */
  allowRequest?(req: IncomingMessage): boolean | EngineRefusal;
}

export interface EngineRefusal {
  status: number;
  body: string;
}

export interface EngineServer {
  readonly sessions: ReadonlyMap<string, EngineSession>;
  readonly options: Readonly<Required<Omit<EngineServerOptions, 'allowRequest'>>>;
  close(): void;
}

function generateSessionId(): string {
  return randomBytes(15).toString('base64url');
}

export function attachEngineServer(
  httpServer: HttpServer,
  userOptions: EngineServerOptions,
  onSession: (session: EngineSession, req: IncomingMessage) => void,
): EngineServer {
  const options = {
    path: userOptions.path ?? '/socket.io/',
    transports: userOptions.transports ?? ['polling', 'websocket'],
    corsOrigins: userOptions.corsOrigins ?? [],
    pingInterval: userOptions.pingInterval ?? 25_000,
    pingTimeout: userOptions.pingTimeout ?? 20_000,
    maxPayload: userOptions.maxPayload ?? 1_000_000,
    upgradeTimeout: userOptions.upgradeTimeout ?? 10_000,
    clock: userOptions.clock ?? systemTransportClock,
  };
  const sessions = new Map<string, EngineSession>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload,
    perMessageDeflate: false,
    clientTracking: false,
  });

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (!origin) return {};
    // Never credentials, never an arbitrary origin: only the listed ones are echoed.
    if (options.corsOrigins.includes(origin)) return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    return {};
  }

  function matches(req: IncomingMessage): boolean {
    return (req.url ?? '').startsWith(options.path);
  }

  /** Returns an error code, or null when the request may proceed. */
  function verify(req: IncomingMessage, upgrade: boolean): EngineErrorCode | null {
    const query = parseEngineQuery(req);
    const transport = query.transport;
    if (transport !== 'polling' && transport !== 'websocket') return EngineErrorCode.UNKNOWN_TRANSPORT;
    if (!options.transports.includes(transport)) return EngineErrorCode.UNKNOWN_TRANSPORT;
    if (query.sid !== null) {
      const session = sessions.get(query.sid);
      if (!session) return EngineErrorCode.UNKNOWN_SID;
      if (!upgrade && session.transport.name !== transport) return EngineErrorCode.BAD_REQUEST;
      if (query.EIO !== '4') return EngineErrorCode.BAD_REQUEST;
      return null;
    }
    if (req.method !== 'GET') return EngineErrorCode.BAD_HANDSHAKE_METHOD;
    if (transport === 'websocket' && !upgrade) return EngineErrorCode.BAD_REQUEST;
    if (query.EIO !== '4') return EngineErrorCode.UNSUPPORTED_PROTOCOL_VERSION;
    return null;
  }

  const forget = (session: EngineSession) => {
    sessions.delete(session.id);
  };

  function openSession(transport: PollingTransport | WebSocketTransport, req: IncomingMessage): EngineSession {
    const session = new EngineSession(generateSessionId(), transport, options, forget);
    sessions.set(session.id, session);
    onSession(session, req);
    session.open();
    return session;
  }

  /** The gate's answer, or null to go on. */
  function gate(req: IncomingMessage): EngineRefusal | null {
    if (!userOptions.allowRequest) return null;
    const allowed = userOptions.allowRequest(req);
    if (allowed === true) return null;
    if (allowed === false)
      return {
        status: 403,
        body: JSON.stringify({
          code: EngineErrorCode.FORBIDDEN,
          message: engineErrorMessages[EngineErrorCode.FORBIDDEN],
        }),
      };
    return allowed;
  }

  function handleRequest(req: IncomingMessage, res: ServerResponse): void {
    const refused = gate(req);
    if (refused) {
      req.resume();
      res.writeHead(refused.status, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(refused.body),
        Connection: 'close',
      });
      res.end(refused.body);
      return;
    }
    const headers = corsHeaders(req);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...headers,
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'content-type',
      });
      res.end();
      return;
    }
    const code = verify(req, false);
    if (code !== null) {
      respondEngineError(res, code, headers);
      return;
    }
    const query = parseEngineQuery(req);
    if (query.sid !== null) {
      const session = sessions.get(query.sid)!;
      session.sawOrigin(req.headers.origin);
      const transport = session.transport;
      if (transport instanceof PollingTransport) transport.handleRequest(req, res);
      else respondEngineError(res, EngineErrorCode.BAD_REQUEST, headers);
      return;
    }
    const transport = new PollingTransport({
      maxPayload: options.maxPayload,
      headersFor: corsHeaders,
      closeTimeoutMs: Math.max(1_000, options.pingTimeout),
      clock: options.clock,
    });
    openSession(transport, req);
    transport.handleRequest(req, res);
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refused = gate(req);
    if (refused) return refuseUpgradeRaw(socket, refused);
    const code = verify(req, true);
    if (code !== null) return refuseUpgrade(socket, code);
    if (parseEngineQuery(req).transport !== 'websocket') return refuseUpgrade(socket, EngineErrorCode.BAD_REQUEST);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const transport = new WebSocketTransport(ws, options.maxPayload);
      const sid = parseEngineQuery(req).sid;
      if (sid !== null) {
        const session = sessions.get(sid);
        if (!session) return transport.discard();
        session.sawOrigin(req.headers.origin);
        session.upgradeTo(transport);
        return;
      }
      openSession(transport, req);
    });
  }

  const otherRequestListeners = httpServer.listeners('request').slice() as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  httpServer.removeAllListeners('request');
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (matches(req)) return handleRequest(req, res);
    for (const listener of otherRequestListeners) listener.call(httpServer, req, res);
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (matches(req)) return handleUpgrade(req, socket, head);
    if (httpServer.listenerCount('upgrade') === 1) refuseUpgrade(socket, EngineErrorCode.BAD_REQUEST);
  };
  httpServer.on('request', onRequest);
  httpServer.on('upgrade', onUpgrade);

  return {
    sessions,
    options,
    close() {
      for (const session of [...sessions.values()]) session.terminate('server shutting down');
      httpServer.off('upgrade', onUpgrade);
      httpServer.off('request', onRequest);
      for (const listener of otherRequestListeners) httpServer.on('request', listener);
      wss.close();
    },
  };
}
