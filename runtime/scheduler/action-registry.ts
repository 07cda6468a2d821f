// The one registry of browser actions (and page preparations) by id, for every task tree. An
// entry is made when a task's pipeline asks its task actor for the action, gets its task's action
// actor when its first frame is written (so the plugin's result is routed to it), its `toolUsed`
// start envelope when it really starts, and is removed when the task actor reports it settled.
// Before this there were three maps (the scheduler's actors, the task's resolvers, the task's
// start envelopes) that had to agree.
import type { AnyActorRef } from 'xstate';
import type { ActionOutput, PagePrepOutput } from '../../machines/index.ts';
import type { FrontendEvent } from '../../transport/contracts/index.ts';

export type SettledOutput = ActionOutput & { durationMs: number };

export interface ActionEntry {
  actionId: string;
  taskId: string;
  actionName: string;
  clientId: string;
  /** The task's action actor, from the action's first frame until it settles. */
  actor?: AnyActorRef;
  /** When its actor started (clock time), for the step's duration. */
  startedAt?: number;
  /** The `toolUsed` start envelope, while it runs (replayed to a late subscriber). */
  startEnvelope?: FrontendEvent;
  /** Told when the task actor starts it (it may wait behind another action or a takeover). */
  onStarted?: () => void;
  /** Told once, when the task actor reports it settled. */
  onSettled?: (output: SettledOutput) => void;
}

export interface ActionRegistry {
  /** An action a task asked for (not yet started). */
  add(entry: ActionEntry): void;
  get(actionId: string): ActionEntry | undefined;
  /** Its actor ended: results for it are `late` from now on. */
  ended(actionId: string): void;
  /** The task actor reported it settled: its waiter is told and the entry removed. */
  settle(actionId: string, output: ActionOutput, now: number): void;
  /** The id was in flight recently (a result now is late, not unknown). */
  wasFinished(actionId: string): boolean;
  /**
   * A retry after an error result goes out under its own dispatch id (`<actionId>~2`, seed 001
   * §4.2): its result is routed to the same action. Kept (bounded) after the action ends, so a late result under it is still its action's.
   */
  alias(dispatchId: string, actionId: string): void;
  /** The actionId a plugin's result id stands for (itself unless it is a live dispatch id). */
  resolve(id: string): string;
  /** Told first whenever an action settles (the scheduler's accounting). */
  onSettled(listener: (entry: ActionEntry, output: ActionOutput, durationMs: number) => void): void;
  /** Entries with a live actor. */
  live(): Iterable<ActionEntry>;
  /** The start envelopes of a task's actions running now. */
  startedOf(taskId: string): FrontendEvent[];
  /** A page preparation the task asked for: told once when it settles. */
  addPrep(prepId: string, onSettled: (output: PagePrepOutput) => void): void;
  settlePrep(prepId: string, output: PagePrepOutput): void;
  size(): number;
}

export function createActionRegistry(options: { rememberFinished?: number } = {}): ActionRegistry {
  const entries = new Map<string, ActionEntry>();
  const preps = new Map<string, (output: PagePrepOutput) => void>();
  const finished = new Set<string>();
  /** Dispatch ids of retries after an error result, to their actionId (live, then recently finished). */
  const aliases = new Map<string, string>();
  const finishedAliases = new Map<string, string>();
  const rememberFinished = options.rememberFinished ?? 10_000;
  const settledListeners: Array<(entry: ActionEntry, output: ActionOutput, durationMs: number) => void> = [];

  function remember(actionId: string): void {
    finished.add(actionId);
    if (finished.size > rememberFinished) finished.delete(finished.values().next().value!);
  }

  function dropAliases(actionId: string): void {
    for (const [dispatchId, target] of aliases) {
      if (target !== actionId) continue;
      aliases.delete(dispatchId);
      // A result under this dispatch id from now on is late, like one under the actionId.
      finishedAliases.set(dispatchId, actionId);
      if (finishedAliases.size > rememberFinished) finishedAliases.delete(finishedAliases.keys().next().value!);
    }
  }

  return {
    add: (entry) => void entries.set(entry.actionId, entry),
    get: (actionId) => entries.get(actionId),
    ended(actionId) {
      const entry = entries.get(actionId);
      if (entry) entry.actor = undefined;
      // An actor no task waits for (none in the runtime; tests may make one) leaves nothing behind.
      if (entry && !entry.onSettled) entries.delete(actionId);
      remember(actionId);
      dropAliases(actionId);
    },
    settle(actionId, output, now) {
      const entry = entries.get(actionId);
      if (!entry) return;
      entries.delete(actionId);
      remember(actionId);
      dropAliases(actionId);
      const durationMs = entry.startedAt === undefined ? 0 : now - entry.startedAt;
      for (const listener of settledListeners) listener(entry, output, durationMs);
      entry.onSettled?.({ ...output, durationMs });
    },
    wasFinished: (actionId) => finished.has(actionId),
    onSettled: (listener) => void settledListeners.push(listener),
    alias: (dispatchId, actionId) => void aliases.set(dispatchId, actionId),
    resolve: (id) => aliases.get(id) ?? finishedAliases.get(id) ?? id,
    *live() {
      for (const entry of entries.values()) if (entry.actor) yield entry;
    },
    startedOf(taskId) {
      const out: FrontendEvent[] = [];
      for (const entry of entries.values())
        if (entry.taskId === taskId && entry.startEnvelope) out.push(entry.startEnvelope);
      return out;
    },
    addPrep: (prepId, onSettled) => void preps.set(prepId, onSettled),
    settlePrep(prepId, output) {
      const settled = preps.get(prepId);
      preps.delete(prepId);
      settled?.(output);
    },
    size: () => entries.size,
  };
}
