// The machines the live view draws, loaded on demand (they bring XState into the page).
import type { AnyStateMachine } from 'xstate';
import { actionMachine } from '../../../machines/action.machine.ts';
import { pagePrepMachine } from '../../../machines/page-prep.machine.ts';
import { pluginUiMachine } from '../../../machines/plugin-ui.machine.ts';
import { taskMachine } from '../../../machines/task.machine.ts';
import { chartOf, type ChartNode } from './machine-chart.ts';

export interface CatalogEntry {
  machineId: string;
  title: string;
  chart: ChartNode;
  /** The machine config, handed to the Stately Inspector as the actor's definition. */
  config: unknown;
}

function entry(title: string, machine: AnyStateMachine): CatalogEntry {
  return { machineId: machine.id, title, chart: chartOf(machine), config: machine.config };
}

export function loadMachineCatalog(): CatalogEntry[] {
  return [
    entry('Task', taskMachine),
    entry('Action', actionMachine),
    entry('Page preparation', pagePrepMachine),
    entry('Plugin UI', pluginUiMachine),
  ];
}
