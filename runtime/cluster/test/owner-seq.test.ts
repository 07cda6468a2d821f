// Event order across owners (owner-seq.ts): a new owner numbers a task's events above every seq
// an earlier owner gave, stored or not, so a client that renders by seq shows the old owner's late
// events (relayed through the database) before the new owner's takeover note.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaskSeq } from '../../socket/task-seq.ts';
import { OWNER_SEQ_SPAN, ownerSeqFloor, seedOwnerSeq } from '../owner-seq.ts';

const test = suite('owner seq');
const stored =
  (...seqs: number[]) =>
  async () =>
    seqs.map((seq) => ({ meta: { seq } }));

test("a new owner's first event sorts after every event of the old owner, even those never stored", async () => {
  const oldOwner = createTaskSeq();
  await seedOwnerSeq(oldOwner, 't', 0, stored());
  const given = Array.from({ length: 40 }, () => oldOwner.next('t')); // deltas and statuses, 3 of them stored
  const newOwner = createTaskSeq();
  await seedOwnerSeq(newOwner, 't', 1, stored(given[4]!, given[17]!, given[30]!));
  const note = newOwner.next('t');
  assert.ok(note > Math.max(...given), `takeover note ${note} after the old owner's ${Math.max(...given)}`);
  assert.is(note, ownerSeqFloor(1) + 1);
});

test('a node that owned the task before goes on above the owner in between, never back', async () => {
  const a = createTaskSeq();
  await seedOwnerSeq(a, 't', 0, stored());
  a.next('t');
  const b = createTaskSeq();
  await seedOwnerSeq(b, 't', 1, stored(1));
  const bLast = [b.next('t'), b.next('t')].at(-1)!;
  await seedOwnerSeq(a, 't', 2, stored(1, bLast)); // a claims it again: its old counter is stale
  assert.ok(a.next('t') > bLast);
});

test('the first owner of a task with history from one node goes on after what is stored', async () => {
  const seq = createTaskSeq();
  await seedOwnerSeq(seq, 't', 0, stored(3, 9));
  assert.is(seq.next('t'), 10);
});

test('seqs stay safe integers for 2^29 owners', () => {
  assert.ok(Number.isSafeInteger(ownerSeqFloor(2 ** 29 - 1) + OWNER_SEQ_SPAN - 1));
});

test.run();
