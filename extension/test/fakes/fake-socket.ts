// A socket.io-client stand-in for server-link tests: records emits, lets the test fire events.
import type { ConnectSocket, SocketLike, SocketOptions } from '../../background/server-link.ts';

export interface FakeSocket extends SocketLike {
  url: string;
  options: SocketOptions;
  emitted: Array<[string, ...unknown[]]>;
  connected: boolean;
  active: boolean;
  connectCalls: number;
  disconnectCalls: number;
  fire(event: string, ...args: unknown[]): void;
}

export function fakeSocketFactory(): { connect: ConnectSocket; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];
  const connect: ConnectSocket = (url, options) => {
    const listeners = new Map<string, Array<(...args: any[]) => void>>();
    const socket: FakeSocket = {
      url,
      options,
      emitted: [],
      connected: false,
      active: true,
      connectCalls: 0,
      disconnectCalls: 0,
      on(event, listener) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return socket;
      },
      emit(event, ...args) {
        socket.emitted.push([event, ...args]);
        return socket;
      },
      connect() {
        socket.connectCalls += 1;
        return socket;
      },
      disconnect() {
        socket.disconnectCalls += 1;
        socket.connected = false;
        socket.active = false;
        return socket;
      },
      fire(event, ...args) {
        if (event === 'connect') socket.connected = true;
        if (event === 'disconnect') socket.connected = false;
        for (const listener of listeners.get(event) ?? []) listener(...args);
      },
    };
    sockets.push(socket);
    return socket;
  };
  return { connect, sockets };
}
