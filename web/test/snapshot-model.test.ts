import { signal } from '@preact/signals';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSnapshotModel, tabIdFromParams } from '../src/models/snapshot-model.ts';
import { payload, snapshotResponse, snapshotState } from './util.ts';

const sync = (seq: number, titles: string[], lastUpdated = 1_000 + seq) =>
  payload('snapshotSync', {
    mode: 'full',
    seq,
    state: snapshotState(
      titles.map((title, i) => ({ tabId: i + 1, title })),
      lastUpdated,
    ),
  });
const titles = (m: ReturnType<typeof createSnapshotModel>) => m.view.value?.state.tabs.map((t) => t.title) ?? null;

function setup() {
  const now = signal(100_000);
  return { now, model: createSnapshotModel({ now }) };
}

const seq = suite('snapshot: seq ordering');

seq('applies increasing seq and ignores older or equal ones', () => {
  const { model } = setup();
  assert.is(model.applySync(sync(5, ['a'])), true);
  assert.is(model.applySync(sync(7, ['a', 'b'])), true);
  assert.is(model.applySync(sync(6, ['old'])), false);
  assert.is(model.applySync(sync(7, ['dup'])), false);
  assert.equal(titles(model), ['a', 'b']);
  assert.is(model.view.value?.seq, 7);
});

seq('ignores a higher seq carrying an older lastUpdated', () => {
  const { model } = setup();
  model.applySync(sync(1, ['new'], 5_000));
  assert.is(model.applySync(sync(2, ['older'], 4_000)), false);
  assert.equal(titles(model), ['new']);
});

const refetch = suite('snapshot: refetch after reconnect');

refetch("after beginRefetch a restarted server's low seq is accepted, then ordering resumes", () => {
  const { model } = setup();
  model.applySync(sync(40, ['before restart']));
  model.beginRefetch();
  assert.is(model.applySync(sync(1, ['after restart'], 9_000)), true);
  assert.is(model.applySync(sync(1, ['again'], 9_000)), false);
  assert.equal(titles(model), ['after restart']);
});

refetch('the HTTP snapshot applies when nothing arrived meanwhile', () => {
  const { model } = setup();
  model.applySync(sync(3, ['pushed']));
  const ticket = model.beginRefetch();
  assert.is(model.applyFetched(ticket, snapshotResponse(snapshotState([{ tabId: 9, title: 'fetched' }], 2_000))), true);
  assert.equal(titles(model), ['fetched']);
  assert.is(model.view.value?.source, 'http');
});

refetch('a push that arrived during the fetch wins over an older HTTP answer', () => {
  const { model } = setup();
  const ticket = model.beginRefetch();
  model.applySync(sync(1, ['pushed during fetch'], 3_000));
  assert.is(
    model.applyFetched(
      ticket,
      snapshotResponse(snapshotState([{ tabId: 9, title: 'fetched' }], 2_500), { connected: false }),
    ),
    false,
  );
  assert.equal(titles(model), ['pushed during fetch']);
  assert.is(model.view.value?.connected, false, 'presence still comes from the fetch');
});

refetch('an answer to a superseded refetch is dropped', () => {
  const { model } = setup();
  const first = model.beginRefetch();
  const second = model.beginRefetch();
  assert.is(model.applyFetched(first, snapshotResponse(snapshotState([{ tabId: 1, title: 'first' }]))), false);
  assert.is(model.applyFetched(second, snapshotResponse(snapshotState([{ tabId: 2, title: 'second' }]))), true);
  assert.equal(titles(model), ['second']);
});

const stale = suite('snapshot: stale, windows, task tab');

stale('stale after 30 s of silence counted from the server age plus local time', () => {
  const { model, now } = setup();
  const ticket = model.beginRefetch();
  model.applyFetched(ticket, snapshotResponse(snapshotState([{ tabId: 1 }]), { ageMs: 25_000 }));
  assert.is(model.stale.value, false);
  now.value += 5_001;
  assert.is(model.stale.value, true);
  model.applySync(sync(1, ['fresh']));
  assert.is(model.stale.value, false);
});

stale('stale when no plugin is connected, and before anything arrived', () => {
  const { model } = setup();
  assert.is(model.stale.value, true);
  model.applyFetched(
    model.beginRefetch(),
    snapshotResponse(snapshotState([{ tabId: 1 }]), { connected: false, ageMs: 0 }),
  );
  assert.is(model.stale.value, true);
});

stale('windows list tabs in index order with consecutive group blocks', () => {
  const { model } = setup();
  const state = snapshotState([
    { tabId: 1, title: 'one' },
    { tabId: 2, title: 'two', groupId: 7 },
    { tabId: 3, title: 'three', groupId: 7 },
    { tabId: 4, title: 'four', active: true },
  ]);
  state.tabGroups = [{ groupId: 7, windowId: 1, title: 'Mimo', color: 'blue' }];
  model.applySync(payload('snapshotSync', { mode: 'full', seq: 1, state }));
  const [win] = model.windows.value;
  assert.ok(win);
  assert.is(win.active, true);
  assert.equal(
    win.groups.map((g) => [g.group?.title ?? null, g.tabs.map((t) => t.tabId)]),
    [
      [null, [1]],
      ['Mimo', [2, 3]],
      [null, [4]],
    ],
  );
});

stale("the task tab comes from a tool step's params summary", () => {
  assert.is(tabIdFromParams('tabId=12 clickId=4'), 12);
  assert.is(tabIdFromParams('url=https://x.test/?tabId=abc'), null);
  assert.is(tabIdFromParams(''), null);
});

seq.run();
refetch.run();
stale.run();
