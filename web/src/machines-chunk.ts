// Everything the live machine view needs beyond the first page load: the machine definitions
// (and XState with them) and the view itself. main.tsx imports this module lazily.
import { MachineView } from './components/machine-view.tsx';
import { loadMachineCatalog, type CatalogEntry } from './models/machine-catalog.ts';

export interface MachinesChunk {
  catalog: CatalogEntry[];
  MachineView: typeof MachineView;
}

export function loadMachinesChunk(): MachinesChunk {
  return { catalog: loadMachineCatalog(), MachineView };
}
