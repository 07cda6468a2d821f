// Shared helpers for the registry tests.
import { createExtensionRegistry } from '../extension-registry.ts';
import type { ExtensionRegistry, RegistryChange } from '../registry-types.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

export const T0 = 1_730_000_000_000;

export interface RegistryHarness {
  clock: TestClock;
  registry: ExtensionRegistry;
  changes: RegistryChange[];
}

export function makeRegistry(): RegistryHarness {
  const clock = createTestClock(T0);
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
    h.clock.increment(1);
  }
}
