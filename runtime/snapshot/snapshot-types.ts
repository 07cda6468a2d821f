// Public shapes of the snapshot store (seed 000 §1 SnapshotStore, seed 001 §2.2, §3.5, §3.6).
import type { FieldError, SnapshotResponse, SnapshotState, TabEventType } from '../../transport/contracts/index.ts';

/** The runtime's one clock type (runtime/clock); this module only reads `now()`. */
import type { WallClock } from '../clock/index.ts';
export type Clock = WallClock;

/** What changed a snapshot: a full sync or the eventType of a tab_event. */
export type SnapshotCause = 'full_state_sync' | TabEventType;

/** Given to `onChange` after every applied message; the server pushes it as snapshotSync (mode full). */
export interface SnapshotChange {
  clientId: string;
  /** Process-wide, strictly increasing across all clients. */
  seq: number;
  state: SnapshotState;
  cause: SnapshotCause;
}

export interface SnapshotStoreOptions {
  clock: Clock;
  onChange?: (change: SnapshotChange) => void;
  /** One line per change (MIMO_SNAPSHOT_DEBUG=1, read by the composer). */
  debugLog?: (line: string) => void;
}

export interface SnapshotInputError {
  code: 'SCHEMA_VALIDATION_FAILED';
  message: string;
  fieldErrors: FieldError[];
}

export type ApplyResult =
  { ok: true; seq: number; state: SnapshotState; warning?: string } | { ok: false; error: SnapshotInputError };

/** GET /api/snapshot data; `clientId` and `seq` are ours (null when nothing was ever synced). */
export type CurrentSnapshot = SnapshotResponse & { clientId: string | null; seq: number | null };

export interface SnapshotStore {
  /** Replaces the client's snapshot. Accepts the full_state_sync message (or just its content). */
  applyFullSync(clientId: string, message: unknown): ApplyResult;
  /** Patches the client's snapshot (an empty one if it never synced) with a validated tab_event. */
  applyTabEvent(clientId: string, message: unknown): ApplyResult;
  /**
   * The snapshot of `clientId`, or with none the most recently updated client's (or an empty
   * one), with `connected` as the caller knows it, `ageMs`, and `stale` (offline or > 30 s).
   */
  current(clientId?: string | null, options?: { connected: boolean }): CurrentSnapshot;
  /** The client whose snapshot changed last, if any. */
  latestClientId(): string | undefined;
  state(clientId: string): SnapshotState | undefined;
  /** Drops a client's snapshot (no change event). */
  forget(clientId: string): void;
}
