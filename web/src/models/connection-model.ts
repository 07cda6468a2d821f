// The socket's connection as the person sees it: connecting, connected, reconnecting, offline.
// `connected()` tells the caller whether this was a reconnection, which is when the task and
// the snapshot must be fetched again (seed 001 §2.2).
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { LinkStatus } from '../io/socket-link.ts';

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface ConnectionError {
  code?: string;
  message: string;
}

export interface ConnectionModel {
  status: ReadonlySignal<ConnectionStatus>;
  lastError: ReadonlySignal<ConnectionError | null>;
  /** Successful reconnections since the page loaded. */
  reconnects: ReadonlySignal<number>;
  attempt: ReadonlySignal<number>;
  label: ReadonlySignal<string>;
  /** Returns `{ reconnected: true }` when the socket had been connected before. */
  connected(): { reconnected: boolean };
  disconnected(reason: string): void;
  connectFailed(error: ConnectionError): void;
  reconnecting(attempt: number): void;
  /** Feeds one status report of the socket link; returns what `connected()` returned, if called. */
  apply(status: LinkStatus): { reconnected: boolean } | null;
}

export function createConnectionModel(): ConnectionModel {
  const status = signal<ConnectionStatus>('connecting');
  const lastError = signal<ConnectionError | null>(null);
  const reconnects = signal(0);
  const attempt = signal(0);
  let everConnected = false;

  const model: ConnectionModel = {
    status,
    lastError,
    reconnects,
    attempt,
    label: computed(() => {
      switch (status.value) {
        case 'connected':
          return 'Connected';
        case 'connecting':
          return 'Connecting…';
        case 'reconnecting':
          return attempt.value > 0 ? `Reconnecting (attempt ${attempt.value})…` : 'Reconnecting…';
        case 'offline':
          return lastError.value?.code === 'UNAUTHORIZED' ? 'Not authorized: add ?token= to the address' : 'Offline';
      }
    }),
    connected() {
      const reconnected = everConnected;
      everConnected = true;
      status.value = 'connected';
      lastError.value = null;
      attempt.value = 0;
      if (reconnected) reconnects.value += 1;
      return { reconnected };
    },
    disconnected(reason) {
      // 'io client disconnect' is this page closing the socket on purpose.
      status.value = reason === 'io client disconnect' ? 'offline' : everConnected ? 'reconnecting' : 'connecting';
    },
    connectFailed(error) {
      lastError.value = error;
      if (error.code === 'UNAUTHORIZED') status.value = 'offline';
      else if (status.value !== 'offline') status.value = everConnected ? 'reconnecting' : 'connecting';
    },
    reconnecting(n) {
      attempt.value = n;
      if (status.value !== 'offline' || lastError.value?.code !== 'UNAUTHORIZED')
        status.value = everConnected ? 'reconnecting' : 'connecting';
    },
    apply(report) {
      switch (report.type) {
        case 'connected':
          return model.connected();
        case 'disconnected':
          model.disconnected(report.reason);
          return null;
        case 'connect_error':
          model.connectFailed(
            report.code === undefined ? { message: report.message } : { code: report.code, message: report.message },
          );
          return null;
        case 'reconnect_attempt':
          model.reconnecting(report.attempt);
          return null;
      }
    },
  };
  return model;
}
