// A window for the content script's input watch (input-watch.ts): one listener per event type,
// and `dispatch` fires a trusted event of that type (fields in `init` override).
export function fakeWindow() {
  const listeners = new Map<string, (event: any) => void>();
  return {
    listeners,
    addEventListener: (type: string, listener: (event: any) => void) => void listeners.set(type, listener),
    removeEventListener: (type: string) => void listeners.delete(type),
    dispatch(type: string, init: Record<string, unknown> = {}) {
      listeners.get(type)?.({ type, isTrusted: true, ...init });
    },
  };
}
