// The clock of the socket server's timers (heartbeat, upgrade, connect and ack timeouts, polling
// close): structurally the runtime's Clock and XState's, so the server passes its one clock and
// tests pass a SimulatedClock instead of sleeping. transport/ imports no runtime code, so the
// shape is declared here.
export interface TransportClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's own timers, unref'd: the listening server keeps the process alive, a pending timer never does. */
export const systemTransportClock: TransportClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
