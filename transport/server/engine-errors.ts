// Engine.IO's HTTP error answers (codes 0-5), as the reference engine.io server sends them:
// status 400 (403 for FORBIDDEN) with a JSON body `{ code, message }`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export const EngineErrorCode = {
  UNKNOWN_TRANSPORT: 0,
  UNKNOWN_SID: 1,
  BAD_HANDSHAKE_METHOD: 2,
  BAD_REQUEST: 3,
  FORBIDDEN: 4,
  UNSUPPORTED_PROTOCOL_VERSION: 5,
} as const;
export type EngineErrorCode = (typeof EngineErrorCode)[keyof typeof EngineErrorCode];

export const engineErrorMessages: Record<EngineErrorCode, string> = {
  0: 'Transport unknown',
  1: 'Session ID unknown',
  2: 'Bad handshake method',
  3: 'Bad request',
  4: 'Forbidden',
  5: 'Unsupported protocol version',
};

export function respondEngineError(
  res: ServerResponse,
  code: EngineErrorCode,
  extraHeaders: Record<string, string> = {},
  message = engineErrorMessages[code],
): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(code === EngineErrorCode.FORBIDDEN ? 403 : 400, {
    'Content-Type': 'application/json',
    ...extraHeaders,
  });
  res.end(JSON.stringify({ code, message }));
}

/** Refuses a WebSocket upgrade on the raw socket, as engine.io does. */
export function refuseUpgrade(socket: Duplex, code: EngineErrorCode, message = engineErrorMessages[code]): void {
  socket.on('error', () => {});
  if (socket.writable) {
    const status = code === EngineErrorCode.FORBIDDEN ? '403 Forbidden' : '400 Bad Request';
    const body = JSON.stringify({ code, message });
    socket.write(
      `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export interface EngineQuery {
  EIO: string | null;
  transport: string | null;
  sid: string | null;
}

export function parseEngineQuery(req: IncomingMessage): EngineQuery {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  return { EIO: params.get('EIO'), transport: params.get('transport'), sid: params.get('sid') };
}

const statusText: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 421: 'Misdirected Request' };

/** Refuses an upgrade with a status and JSON body of the caller's choosing (the request gate's). */
export function refuseUpgradeRaw(socket: Duplex, refusal: { status: number; body: string }): void {
  socket.on('error', () => {});
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${refusal.status} ${statusText[refusal.status] ?? 'Refused'}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(refusal.body)}\r\n\r\n${refusal.body}`,
    );
  }
  socket.destroy();
}
