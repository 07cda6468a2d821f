// Shared helpers of the transport tests: a real http server on 127.0.0.1 with our Socket.IO
// server attached, and the real socket.io-client as the peer.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  io as connectIo,
  type ManagerOptions,
  type Socket as ClientSocket,
  type SocketOptions,
} from 'socket.io-client';
import { createSocketServer, type SocketServer, type SocketServerOptions } from '../index.ts';

export interface TestServer {
  http: HttpServer;
  io: SocketServer;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startTestServer(options: SocketServerOptions = {}, port = 0): Promise<TestServer> {
  const http = createServer((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  });
  const io = createSocketServer(http, { onListenerError: () => {}, ...options });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const actualPort = (http.address() as AddressInfo).port;
  return {
    http,
    io,
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        io.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

export type ClientOptions = Partial<ManagerOptions & SocketOptions>;

/** Connects the real socket.io-client; resolves once connected, rejects on connect_error. */
export function connectClient(url: string, options: ClientOptions = {}): Promise<ClientSocket> {
  const socket = connectIo(url, { reconnection: false, forceNew: true, ...options });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

export function once<T = unknown>(
  emitter: { once(event: string, fn: (...args: any[]) => void): unknown },
  event: string,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for "${event}"`)), timeoutMs);
    emitter.once(event, (value: T) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` until true, failing after `timeoutMs`. For waits on real network peers only. */
export async function eventually(predicate: () => boolean, timeoutMs = 5_000, message = 'condition'): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${message}`);
    await sleep(10);
  }
}

export const transportsUnderTest: Array<{ name: string; options: ClientOptions }> = [
  { name: 'websocket', options: { transports: ['websocket'] } },
  { name: 'polling then upgrade', options: {} },
  { name: 'polling only', options: { transports: ['polling'] } },
];
