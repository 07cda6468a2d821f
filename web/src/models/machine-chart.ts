// A statechart as plain data, walked from an XState machine definition (`machine.root`), and the
// set of state paths a snapshot value makes active. Pure; the view draws the result as nested boxes.
import type { AnyStateMachine } from 'xstate';

export interface ChartTransition {
  /** The raw event type (`RESULT`, `xstate.after.RETRY_BACKOFF.action.retryWait`, ...). */
  event: string;
  /** What a reader sees: `RESULT`, `after RETRY_BACKOFF`, `done: turn`, `always`. */
  label: string;
  /** Dot paths of the targets relative to the root ('' for none: an internal transition). */
  targets: string[];
  guard?: string;
}

export interface ChartNode {
  key: string;
  /** Dot path from the root (`running.active`); '' for the root. */
  path: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** Key of the initial child of a compound state. */
  initial?: string;
  children: ChartNode[];
  transitions: ChartTransition[];
  /** Ids of the actors the state invokes. */
  invokes: string[];
}

/** Structural view of XState's StateNode: what this module reads. */
interface NodeLike {
  key: string;
  path: string[];
  type: ChartNode['type'];
  states: Record<string, NodeLike>;
  initial?: { target?: readonly NodeLike[] };
  transitions: Map<string, readonly TransitionLike[]>;
  always?: readonly TransitionLike[];
  invoke?: readonly { id: string }[];
}
interface TransitionLike {
  target?: readonly NodeLike[];
  guard?: unknown;
}

export function eventLabel(event: string): string {
  if (event === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(event);
  if (after) return /^\d+$/.test(after[1]!) ? `after ${after[1]} ms` : `after ${after[1]}`;
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  if (done) return `${done[1]}: ${done[2]}`;
  if (event.startsWith('xstate.done.state.')) return 'done';
  return event;
}

/**
 * Names a guard function: XState's and()/or()/not() return functions whose names a minifier
 * renames, so the caller may pass `combinatorName` that recognises them another way.
 */
export type CombinatorName = (guard: Function) => string | undefined;

export function guardLabel(guard: unknown, combinatorName?: CombinatorName): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string')
    return (guard as { type: string }).type;
  if (typeof guard === 'function') {
    const inner = (guard as { guards?: unknown[] }).guards;
    const name = combinatorName?.(guard) ?? (guard.name || 'guard');
    return Array.isArray(inner)
      ? `${name}(${inner.map((g) => guardLabel(g, combinatorName) ?? '?').join(', ')})`
      : name;
  }
  return 'guard';
}

function transitionsOf(node: NodeLike, combinatorName?: CombinatorName): ChartTransition[] {
  const out: ChartTransition[] = [];
  const add = (event: string, list: readonly TransitionLike[]) => {
    for (const t of list) {
      const guard = guardLabel(t.guard, combinatorName);
      out.push({
        event,
        label: eventLabel(event),
        targets: (t.target ?? []).map((n) => n.path.join('.')),
        ...(guard ? { guard } : {}),
      });
    }
  };
  for (const [event, list] of node.transitions) add(event, list);
  if (node.always) add('', node.always);
  return out;
}

function nodeOf(node: NodeLike, combinatorName?: CombinatorName): ChartNode {
  const initial = node.initial?.target?.[0]?.key;
  return {
    key: node.key,
    path: node.path.join('.'),
    type: node.type,
    ...(initial !== undefined && node.type === 'compound' ? { initial } : {}),
    children: Object.values(node.states ?? {}).map((child) => nodeOf(child, combinatorName)),
    transitions: transitionsOf(node, combinatorName),
    invokes: (node.invoke ?? []).map((i) => i.id),
  };
}

export function chartOf(machine: AnyStateMachine, options: { combinatorName?: CombinatorName } = {}): ChartNode {
  return nodeOf(machine.root as unknown as NodeLike, options.combinatorName);
}

/** `{ running: 'active' }` -> {'running', 'running.active'}. Unknown shapes give an empty set. */
export function activePaths(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
  const join = (key: string) => (prefix === '' ? key : `${prefix}.${key}`);
  if (typeof value === 'string') out.add(join(value));
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      out.add(join(key));
      activePaths(child, join(key), out);
    }
  }
  return out;
}

/** Readable state value: `running.active`, `a.x + b.y` for parallel states. */
export function formatStateValue(value: unknown): string {
  const leaves = [...activePaths(value)].filter((p, _, all) => !all.some((q) => q.startsWith(`${p}.`)));
  return leaves.length === 0 ? '—' : leaves.join(' + ');
}
