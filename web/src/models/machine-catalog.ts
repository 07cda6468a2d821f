// The machines the live view draws, loaded on demand (they bring XState into the page).
import { and, not, or, type AnyStateMachine } from 'xstate';
import { actionMachine } from '../../../machines/action.machine.ts';
import { pagePrepMachine } from '../../../machines/page-prep.machine.ts';
import { pluginUiMachine } from '../../../machines/plugin-ui.machine.ts';
import { taskMachine } from '../../../machines/task.machine.ts';
import { chartOf, type ChartNode, type CombinatorName } from './machine-chart.ts';

export interface CatalogEntry {
  machineId: string;
  title: string;
  chart: ChartNode;
  /** The machine config, handed to the Stately Inspector as the actor's definition. */
  config: unknown;
  /** Where the server runs it when not as an actor of its own: a region of another machine's actors. */
  regionOf?: { machineId: string; region: string };
}

/** and()/or()/not() guards share their `check` function with a probe built here, whatever a minifier named them. */
const probes: [string, unknown][] = [
  ['and', (and([]) as unknown as { check: unknown }).check],
  ['or', (or([]) as unknown as { check: unknown }).check],
  ['not', (not('x') as unknown as { check: unknown }).check],
];
const combinatorName: CombinatorName = (guard) =>
  probes.find(([, check]) => check === (guard as unknown as { check?: unknown }).check)?.[0];

function entry(title: string, machine: AnyStateMachine, regionOf?: CatalogEntry['regionOf']): CatalogEntry {
  return {
    machineId: machine.id,
    title,
    chart: chartOf(machine, { combinatorName }),
    config: machine.config,
    ...(regionOf ? { regionOf } : {}),
  };
}

export function loadMachineCatalog(): CatalogEntry[] {
  return [
    entry('Task', taskMachine),
    // The server runs the action slot as the task machine's `action` region (actionMachine is that slot as an actor).
    entry('Action', actionMachine, { machineId: 'task', region: 'action' }),
    entry('Page preparation', pagePrepMachine),
    // The extension runs it as an actor; the server mirrors it as the task machine's `pluginUi` region.
    entry('Plugin UI', pluginUiMachine, { machineId: 'task', region: 'pluginUi' }),
  ];
}
