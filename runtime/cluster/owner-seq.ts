// A task's event order across owners. Every frontend event of a task carries a per-task seq
// (runtime/socket/task-seq.ts) and the web UI renders by it, whatever order events arrive in. In
// a cluster a task changes hands (a takeover after a kill, a handoff, a re-claim after its owner
// released it), and the old owner's last events may still be on their way through the database
// relay when the new owner speaks; some of them (deltas, statuses) were never stored, so the new
// owner cannot know their numbers. So each owner numbers in a range of its own: the task's
// ownership generation (task-ownership.ts: +1 on every fresh claim) times a span far above what
// one owner ever emits, and never below what the store holds. Every event of a later owner sorts
// after every event of an earlier one; within one owner the order is its emit order.
import type { TaskSeq } from '../socket/task-seq.ts';
import { lastStoredSeq } from '../socket/task-seq.ts';

/** Seqs one owner may give (2^24); with 2^29 generations every seq stays a safe integer. */
export const OWNER_SEQ_SPAN = 2 ** 24;

/** The last seq before the first one of `generation`'s owner. */
export const ownerSeqFloor = (generation: number) => generation * OWNER_SEQ_SPAN;

/** Sets this node's counter for a task it just claimed: above every earlier owner's and every stored seq. */
export async function seedOwnerSeq(
  seq: TaskSeq,
  taskId: string,
  generation: number,
  listMessages: (taskId: string) => Promise<ReadonlyArray<{ meta?: { [key: string]: unknown } }>>,
): Promise<void> {
  const stored = lastStoredSeq(await listMessages(taskId));
  seq.seed(taskId, Math.max(stored, ownerSeqFloor(generation)));
}
