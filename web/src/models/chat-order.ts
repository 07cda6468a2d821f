// The chat in the task's one order: items that know their seq (the server's per-task event
// order, live or stored) sort by it; an item without one (a message still sending, history from
// before seqs) stays right after the item it follows. So the live view, a second window and a
// reload, which all get the same seqs, show the same conversation.
import type { ChatItem } from './chat-items.ts';

/** `items` with `item` in its place: at the end when it has no seq or none before it is later. */
export function placeBySeq(items: readonly ChatItem[], item: ChatItem): ChatItem[] {
  const next = [...items, item];
  if (item.seq === undefined) return next;
  let last: number | undefined;
  for (let i = items.length - 1; i >= 0 && last === undefined; i--) last = items[i]!.seq;
  return last === undefined || last <= item.seq ? next : sortBySeq(next);
}

/** Stable sort by seq; an item without one keeps the key of the item before it. */
export function sortBySeq(items: readonly ChatItem[]): ChatItem[] {
  if (!items.some((i) => i.seq !== undefined)) return [...items];
  let key = 0;
  return items
    .map((item, index) => {
      if (item.seq !== undefined) key = item.seq;
      return { item, key, index };
    })
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map((x) => x.item);
}
