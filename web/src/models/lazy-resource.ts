// A value loaded once on first need (a lazily imported chunk), as signals.
import { signal, type ReadonlySignal } from '@preact/signals';

export interface LazyResource<T> {
  value: ReadonlySignal<T | null>;
  error: ReadonlySignal<string | null>;
  /** Starts loading unless loaded or loading; resolves when done. */
  load(): Promise<void>;
}

export function createLazyResource<T>(loader: () => Promise<T>): LazyResource<T> {
  const value = signal<T | null>(null);
  const error = signal<string | null>(null);
  let pending: Promise<void> | null = null;
  return {
    value,
    error,
    load() {
      if (value.value !== null) return Promise.resolve();
      pending ??= loader().then(
        (loaded) => {
          value.value = loaded;
          error.value = null;
        },
        (cause: unknown) => {
          pending = null;
          error.value = cause instanceof Error ? cause.message : String(cause);
        },
      );
      return pending;
    },
  };
}
