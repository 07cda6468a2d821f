// MIMO_INSPECT=stately: forwards every inspection event to the Stately Inspector through
// @statelyai/inspect: a local bridge server (its `server` entry) that the Stately Inspector UI
// in a browser connects to, fed by a WebSocket inspector.
import type { InspectionEvent } from 'xstate';

export async function startStatelyBridge(port: number): Promise<{ url: string; forward(event: InspectionEvent): void; close(): void }> {
  const { createInspectorServer } = await import('@statelyai/inspect/server');
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const server = createInspectorServer({ port, autoOpen: false }) as { close?: () => void; url?: string };
  const inspector = createWebSocketInspector({ url: `ws://localhost:${port}` });
  return {
    url: `http://localhost:${port}`,
    forward(event) {
      inspector.inspect.next?.(event);
    },
    close() {
      inspector.stop?.();
      server.close?.();
    },
  };
}
