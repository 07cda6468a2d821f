// Everything the live machine view needs beyond the first page load: the machine definitions
// (and XState with them) and the view itself. main.tsx imports this module lazily.
import { MachineView } from './components/machine-view.tsx';
import { loadMachineCatalog, type CatalogEntry } from './models/machine-catalog.ts';
import { createStatelyBridge, type StatelyBridge, type StatelyBridgeDeps } from './models/stately-bridge.ts';

export interface MachinesChunk {
  catalog: CatalogEntry[];
  MachineView: typeof MachineView;
  /** The Stately Inspector bridge (built with the chunk: nothing of it is needed before). */
  stately: StatelyBridge;
}

export function loadMachinesChunk(bridge: Omit<StatelyBridgeDeps, 'definitionOf'>): MachinesChunk {
  const catalog = loadMachineCatalog();
  const stately = createStatelyBridge({
    ...bridge,
    definitionOf: (machineId) => catalog.find((e) => e.machineId === machineId)?.config,
  });
  return { catalog, MachineView, stately };
}
