// Shared helpers for the registry tests.
import { createExtensionRegistry } from '../extension-registry.ts';
import type { ExtensionRegistry, RegistryChange } from '../registry-types.ts';

export const T0 = 1_730_000_000_000;

export interface FakeClock {
  now(): number;
  advance(ms: number): void;
}

export function createFakeClock(start = T0): FakeClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export interface RegistryHarness {
  clock: FakeClock;
  registry: ExtensionRegistry;
  changes: RegistryChange[];
}

export function makeRegistry(): RegistryHarness {
  const clock = createFakeClock();
  const registry = createExtensionRegistry({ clock });
  const changes: RegistryChange[] = [];
  registry.subscribe((change) => changes.push(change));
  return { clock, registry, changes };
}

/** Registers and connects one socket for each id, one millisecond apart. */
export function online(h: RegistryHarness, ...clientIds: string[]): void {
  for (const clientId of clientIds) {
    h.registry.register({ clientId, extensionId: `ext-${clientId}`, version: '0.1.0' });
    h.registry.socketConnected(clientId);
    h.clock.advance(1);
  }
}
