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

const watch = suite('user input watch (content script)');

watch('trusted mouse and keyboard input is user input; synthetic events and the overlay are not', () => {
  const win = fakeWindow();
  const seen: string[] = [];
  const stop = watchUserInput({
    window: win as unknown as Window,
    isOverlayEvent: (e) => (e as any).fromOverlay === true,
    ownInputActive: () => false,
    onUserInput: (k) => seen.push(k),
  });
  win.dispatch('mousedown');
  win.dispatch('keydown');
  win.dispatch('touchstart');
  win.dispatch('mousedown', { isTrusted: false });
  win.dispatch('pointerdown', { fromOverlay: true });
  win.dispatch('mousemove');
  assert.equal(seen, ['user_click', 'user_key', 'user_touch']);
  stop();
  assert.is(win.listeners.size, 0);
});

watch("the extension's own input (guard armed by the page agent) is ignored until shortly after it settles", () => {
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
  armOwnInput(host, now);
  win.dispatch('pointerdown');
  now += 50;
  settleOwnInput(host, now);
  win.dispatch('mousedown');
  now += OWN_INPUT_GRACE_MS - 1;
  win.dispatch('mousedown');
  assert.equal(seen, []);
  now += 1;
  win.dispatch('mousedown');
  assert.equal(seen, ['user_click']);
});

watch('an armed guard expires by itself if the settle message never comes', () => {
  const host: Record<string, unknown> = {};
  armOwnInput(host, 0);
  assert.ok(ownInputActive(host, OWN_INPUT_ARM_MS - 1));
  assert.not.ok(ownInputActive(host, OWN_INPUT_ARM_MS));
  settleOwnInput(host, OWN_INPUT_ARM_MS + 10);
  assert.not.ok(ownInputActive(host, OWN_INPUT_ARM_MS + 10), 'settling an expired guard does not re-arm it');
});

watch.run();
