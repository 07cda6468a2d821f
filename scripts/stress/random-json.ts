// Random JSON values and near-miss protocol messages for fuzzing the message handlers.
import type { Prng } from './prng.ts';

const words = [
  'user_message',
  'tab_event',
  'browser_action_result',
  'full_state_sync',
  'activate_extension',
  'subscribe_task',
  'x',
  '',
  '__proto__',
  'constructor',
];

export function randomJson(rng: Prng, depth = 0): unknown {
  const roll = rng.int(depth > 3 ? 5 : 8);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return rng.next() < 0.5;
    case 2:
      return rng.pick([0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308, rng.int(1000)]);
    case 3:
      return rng.pick(words);
    case 4:
      return 'x'.repeat(rng.int(300));
    case 5:
      return Array.from({ length: rng.int(5) }, () => randomJson(rng, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(6); i > 0; i--)
        out[
          rng.pick([...words, 'v', 'type', 'taskId', 'id', 'content', 'tabs', 'tab', 'eventType', 'actionId', 'status'])
        ] = randomJson(rng, depth + 1);
      return out;
    }
  }
}

/** A message that looks like ours with one field broken or random. */
export function nearMissMessage(rng: Prng): unknown {
  const base: Record<string, unknown> = rng.pick([
    { v: 1, type: 'user_message', id: 'evt-1', timestamp: 1, taskId: '01JD0000000000000000000000', content: 'hi' },
    { v: 1, type: 'subscribe_task', id: 'evt-2', timestamp: 1, taskId: '01JD0000000000000000000000' },
    {
      v: 1,
      type: 'tab_event',
      eventType: 'tab_updated',
      tab: { tabId: 1, windowId: 1, active: true, pinned: false, hidden: false, index: 0 },
      timestamp: 1,
    },
    { v: 1, type: 'browser_action_result', actionId: 'act-1', status: 'success', result: {} },
    { actionId: 'act-1', status: 'error', error: 'timeout' },
  ]);
  const keys = Object.keys(base);
  const key = rng.pick(keys);
  if (rng.next() < 0.5) base[key] = randomJson(rng);
  else delete base[key];
  return base;
}
