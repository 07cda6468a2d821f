// The spontaneous `user_key` takeover (issue 23), pinned: the own-input guard armed by the
// agent's typing is not cut short by the late settle of the action before it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { watchUserInput } from '../content/input-watch.ts';
import {
  armOwnInput,
  OWN_INPUT_ARM_MS,
  OWN_INPUT_GRACE_MS,
  ownInputActive,
  settleOwnInput,
} from '../shared/own-input-guard.ts';
import { fakeWindow } from './fakes/fake-window.ts';

const watch = suite('own input guard');

watch("a click's late settle does not end the guard of the typing that followed", () => {
  const win = fakeWindow();
  const seen: string[] = [];
  const host: Record<string, unknown> = {};
  let now = 1_000;
  watchUserInput({
    window: win as unknown as Window,
    isOverlayEvent: () => false,
    ownInputActive: () => ownInputActive(host, now),
    onUserInput: (k) => seen.push(k),
  });
  // The click is armed, runs, and its settle is sent at 1_100 (posted off the critical path).
  armOwnInput(host, now);
  const clickSettleSentAt = (now += 100);
  // The next action, browser_type 'Buy milk' with submit, arms the guard before that settle lands.
  now += 20;
  armOwnInput(host, now, OWN_INPUT_ARM_MS + 8 * 40);
  now += 5;
  settleOwnInput(host, now, clickSettleSentAt);
  // Typing is insertText (no key events); the Enter of submit comes 400 ms later.
  now += 400;
  win.dispatch('keydown');
  assert.equal(seen, [], 'before the fix, the guard was cut to 150 ms here and the Enter became user_key');
  // The type's own settle (sent after its arm) still ends its guard after the grace.
  settleOwnInput(host, now, now);
  now += OWN_INPUT_GRACE_MS;
  win.dispatch('keydown');
  assert.equal(seen, ['user_key']);
});

watch.run();
