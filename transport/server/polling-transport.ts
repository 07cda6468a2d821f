// Engine.IO over HTTP long-polling: GET waits for packets, POST carries the client's packets.
// One GET and one POST at a time; an overlapping request is an error that ends the session.
import type { TransportClock } from './transport-clock.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeEnginePayload, encodeEnginePayload, type EnginePacket } from '../codec/index.ts';
import { EngineErrorCode, respondEngineError } from './engine-errors.ts';
import type { EngineTransport, TransportOwner } from './engine-transport.ts';

export interface PollingOptions {
  maxPayload: number;
  /** Extra headers for every response (CORS). */
  headersFor(req: IncomingMessage): Record<string, string>;
  /** How long a close waits for the client's next GET to deliver the close packet. */
  closeTimeoutMs: number;
  clock: TransportClock;
}

export class PollingTransport implements EngineTransport {
  readonly name = 'polling' as const;
  owner: TransportOwner | null = null;
  private pendingGet: { req: IncomingMessage; res: ServerResponse } | null = null;
  private postInProgress = false;
  private closing = false;
  private closed = false;
  private closeTimer: unknown = null;

  constructor(private readonly options: PollingOptions) {}

  get writable(): boolean {
    return this.pendingGet !== null && !this.closed;
  }

  handleRequest(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'GET') this.onPoll(req, res);
    else if (req.method === 'POST') this.onData(req, res);
    else {
      respondEngineError(res, EngineErrorCode.BAD_REQUEST, this.options.headersFor(req));
    }
  }

  private onPoll(req: IncomingMessage, res: ServerResponse): void {
    if (this.pendingGet) {
      respondEngineError(res, EngineErrorCode.BAD_REQUEST, this.options.headersFor(req));
      this.owner?.onTransportError(this, 'transport error', 'overlapping GET from the client');
      return;
    }
    const pending = { req, res };
    this.pendingGet = pending;
    res.on('close', () => {
      if (this.pendingGet === pending) {
        this.pendingGet = null;
        this.owner?.onTransportError(this, 'transport close', 'poll connection closed prematurely');
      }
    });
    this.owner?.onTransportDrain(this);
    if (this.closing && this.pendingGet === pending) {
      this.respond([{ type: 'close' }]);
      this.finishClose();
    }
  }

  private onData(req: IncomingMessage, res: ServerResponse): void {
    const headers = this.options.headersFor(req);
    if (this.postInProgress) {
      respondEngineError(res, EngineErrorCode.BAD_REQUEST, headers);
      this.owner?.onTransportError(this, 'transport error', 'overlapping POST from the client');
      return;
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > this.options.maxPayload) {
      res.writeHead(413, { ...headers, Connection: 'close' }).end();
      req.resume();
      this.owner?.onTransportError(this, 'transport error', 'payload too large');
      return;
    }
    this.postInProgress = true;
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (chunk: Buffer) => {
      if (aborted) return;
      size += chunk.length;
      if (size > this.options.maxPayload) {
        aborted = true;
        this.postInProgress = false;
        res.writeHead(413, { ...headers, Connection: 'close' }).end();
        req.destroy();
        this.owner?.onTransportError(this, 'transport error', 'payload too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      this.postInProgress = false;
    });
    req.on('end', () => {
      if (aborted) return;
      this.postInProgress = false;
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '2', ...headers }).end('ok');
      const packets = decodeEnginePayload(Buffer.concat(chunks).toString('utf8'), this.options.maxPayload);
      if (!Array.isArray(packets)) {
        this.owner?.onTransportError(this, 'parse error', packets);
        return;
      }
      for (const packet of packets) {
        if (this.closed) return;
        this.owner?.onTransportPacket(this, packet);
      }
    });
  }

  send(packets: EnginePacket[]): void {
    if (!this.pendingGet) return;
    // While closing, what is still buffered goes out alone and the close packet on the next GET
    // (as engine.io does): socket.io-client handles decoded packets on the next tick, so a close
    // in the same payload would overtake a DISCONNECT and the client would reconnect.
    this.respond(packets);
  }

  private respond(packets: EnginePacket[]): void {
    const pending = this.pendingGet;
    if (!pending) return;
    this.pendingGet = null;
    const body = encodeEnginePayload(packets);
    pending.res.writeHead(200, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      ...this.options.headersFor(pending.req),
    });
    pending.res.end(body);
  }

  close(): void {
    if (this.closed || this.closing) return;
    this.closing = true;
    if (this.pendingGet) {
      this.respond([{ type: 'close' }]);
      this.finishClose();
      return;
    }
    this.closeTimer = this.options.clock.setTimeout(() => this.finishClose(), this.options.closeTimeoutMs);
  }

  private finishClose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.closeTimer) this.options.clock.clearTimeout(this.closeTimer);
    this.owner?.onTransportClose(this);
  }

  discard(): void {
    // After an upgrade: end a waiting GET with a noop so the client's poll loop stops cleanly.
    if (this.pendingGet) this.respond([{ type: 'noop' }]);
    this.closed = true;
    this.owner = null;
    if (this.closeTimer) this.options.clock.clearTimeout(this.closeTimer);
  }
}
