export { createSnapshotStore } from './snapshot-store.ts';
export { applyTabEventToDraft } from './apply-tab-event.ts';
export { draftOf, stateOf, reconcileActive } from './snapshot-draft.ts';
export type { SnapshotContent, SnapshotDraft } from './snapshot-draft.ts';
export type {
  ApplyResult,
  Clock,
  CurrentSnapshot,
  SnapshotCause,
  SnapshotChange,
  SnapshotInputError,
  SnapshotStore,
  SnapshotStoreOptions,
} from './snapshot-types.ts';
