// Folds a freshly fetched history (GET /api/task/:taskId) into what the chat already shows, so
// that opening a task twice or reconnecting never shows a message twice and never loses what
// only the live stream carried (tool steps with thumbnails, notices, text still streaming).
//
// History is authoritative for user and assistant text. Live items are kept when history cannot
// contain them: a user message still sending or failed, an assistant segment still streaming, a
// finished segment whose text no history message contains, tool steps history does not list,
// notices. Placement is by turn (the user message an item answers), then by server timestamp
// inside the turn, so a browser clock that differs from the server's cannot reorder a turn.
// Stored messages that carry their event's seq (`meta.seq`) are then sorted by it with the live
// items (chat-order.ts): the answer's segments (`meta.segments`) between the steps, stored notes
// as the notices they were, so a reload shows what the live view showed.
import type { TaskMessage } from '../../../transport/contracts/http.ts';
import { normalizeText, type ChatItem, type ToolItem, type UserItem } from './chat-items.ts';
import { sortBySeq } from './chat-order.ts';
import { toolItemFromHistory } from './history-tool-result.ts';

/** A live user message with the same text this close to a history one is the same message. */
const SAME_MESSAGE_WINDOW_MS = 120_000;

interface Turn {
  userId: string | undefined;
  items: ChatItem[];
}

const seqOf = (m: TaskMessage): number | undefined => (typeof m.meta?.seq === 'number' ? m.meta.seq : undefined);

interface Segment {
  seq: number;
  text: string;
}

function segmentsOf(m: TaskMessage): Segment[] | null {
  const raw = m.meta?.segments;
  if (!Array.isArray(raw)) return null;
  const segments = raw.filter(
    (s): s is Segment =>
      typeof s === 'object' &&
      s !== null &&
      typeof (s as Segment).seq === 'number' &&
      typeof (s as Segment).text === 'string',
  );
  return segments.length === raw.length && segments.length > 0 ? segments : null;
}

function historyItems(m: TaskMessage, turn: string | undefined, liveTools: Map<string, ToolItem[]>): ChatItem[] {
  // An answer stored with its segments: one item per segment, each where it was shown.
  const segments = m.role === 'assistant' ? segmentsOf(m) : null;
  if (segments) {
    return segments
      .filter((s) => s.text.trim() !== '')
      .map((s, i) => ({
        kind: 'assistant',
        key: `h:${m.id}:${i}`,
        id: m.id,
        content: s.text,
        timestamp: m.timestamp,
        streaming: false,
        fromHistory: true,
        seq: s.seq,
        ...(turn ? { turn } : {}),
      }));
  }
  const item = historyItem(m, turn, liveTools);
  const list = Array.isArray(item) ? item : item ? [item] : [];
  const seq = seqOf(m);
  // A live twin keeps its own seq (the event that showed it).
  return seq === undefined ? list : list.map((i) => (i.seq === undefined ? { ...i, seq } : i));
}

function historyItem(
  m: TaskMessage,
  turn: string | undefined,
  liveTools: Map<string, ToolItem[]>,
): ChatItem | ChatItem[] | null {
  switch (m.role) {
    case 'user':
      return { kind: 'user', key: `h:${m.id}`, id: m.id, content: m.content, timestamp: m.timestamp, delivery: 'sent' };
    case 'assistant':
      if (m.content.trim() === '') return null; // a turn step that only called tools
      return {
        kind: 'assistant',
        key: `h:${m.id}`,
        id: m.id,
        content: m.content,
        timestamp: m.timestamp,
        streaming: false,
        fromHistory: true,
        ...(turn ? { turn } : {}),
      };
    case 'tool': {
      // A stored step of one browser action (meta.actionId): its live twin says more.
      const actionId = typeof m.meta?.actionId === 'string' ? m.meta.actionId : undefined;
      if (actionId) {
        const twin = m.toolCallId ? liveTools.get(m.toolCallId)?.find((t) => t.actionId === actionId) : undefined;
        return twin ?? toolItemFromHistory(m, turn);
      }
      // A stored result of a whole tool call: the live steps of this call (one per browser action) say more.
      const live = m.toolCallId ? liveTools.get(m.toolCallId) : undefined;
      if (live) return live;
      return toolItemFromHistory(m, turn);
    }
    case 'system':
      // A note the live view showed as a notice (stored with its seq); other system text is not shown.
      if (seqOf(m) === undefined) return null;
      return {
        kind: 'notice',
        key: `h:${m.id}`,
        id: m.id,
        status: 'info',
        message: m.content,
        timestamp: m.timestamp,
        ...(turn ? { turn } : {}),
      };
  }
}

export function mergeHistory(live: readonly ChatItem[], messages: readonly TaskMessage[]): ChatItem[] {
  const liveTools = new Map<string, ToolItem[]>();
  for (const item of live) {
    if (item.kind === 'tool' && item.resultText === undefined)
      liveTools.set(item.toolCallId, [...(liveTools.get(item.toolCallId) ?? []), item]);
  }

  // 1. History, cut into turns at each user message.
  const turns: Turn[] = [{ userId: undefined, items: [] }];
  const historyToolIds = new Set<string>();
  const historyActionIds = new Set<string>();
  /** Tool calls stored as one whole result (no actionId): their live steps were placed with it. */
  const wholeCallIds = new Set<string>();
  const assistantTexts: string[] = [];
  const historyUsers: TaskMessage[] = [];
  /** Seqs of stored notes: their live notices are the same rows. */
  const noteSeqs = new Set<number>();
  for (const m of messages) {
    if (m.role === 'user') {
      turns.push({ userId: m.id, items: [] });
      historyUsers.push(m);
    }
    const turn = turns[turns.length - 1]!;
    if (m.role === 'tool' && m.toolCallId) historyToolIds.add(m.toolCallId);
    if (m.role === 'tool' && typeof m.meta?.actionId === 'string') historyActionIds.add(m.meta.actionId);
    else if (m.role === 'tool' && m.toolCallId) wholeCallIds.add(m.toolCallId);
    for (const item of historyItems(m, turn.userId, liveTools)) {
      if (item.kind === 'assistant') assistantTexts.push(normalizeText(item.content));
      if (item.kind === 'notice' && item.seq !== undefined) noteSeqs.add(item.seq);
      turn.items.push(item);
    }
  }

  // 2. Which live user messages history already has (by id, else by text and time).
  const turnOfUser = new Map<string, Turn>();
  for (const turn of turns) if (turn.userId) turnOfUser.set(turn.userId, turn);
  const aliasOf = new Map<string, string>(); // live user id -> history user id
  const claimed = new Set<string>();
  for (const item of live) {
    if (item.kind !== 'user') continue;
    if (turnOfUser.has(item.id)) {
      aliasOf.set(item.id, item.id);
      claimed.add(item.id);
      continue;
    }
    const text = normalizeText(item.content);
    const twin = historyUsers.find(
      (m) =>
        !claimed.has(m.id) &&
        normalizeText(m.content) === text &&
        Math.abs(m.timestamp - item.timestamp) <= SAME_MESSAGE_WINDOW_MS,
    );
    if (twin) {
      aliasOf.set(item.id, twin.id);
      claimed.add(twin.id);
    }
  }

  // 3. A turn whose live segments spell exactly its stored assistant text keeps the segments
  //    (they sit between the tool steps where they were said) instead of the stored copy.
  const anchorOf = (item: ChatItem) =>
    item.kind === 'user' ? undefined : item.turn === undefined ? undefined : (aliasOf.get(item.turn) ?? item.turn);
  const squash = (text: string) => text.replace(/\s+/g, '');
  const preferLive = new Set<ChatItem>();
  for (const turn of turns) {
    if (!turn.userId) continue;
    const stored: ChatItem[] = turn.items.filter((i) => i.kind === 'assistant');
    const segments = live.filter(
      (i) => i.kind === 'assistant' && !i.fromHistory && !i.streaming && anchorOf(i) === turn.userId,
    );
    if (stored.length === 0 || segments.length === 0) continue;
    const text = (list: ChatItem[]) => squash(list.map((i) => (i.kind === 'assistant' ? i.content : '')).join(''));
    if (text(stored) !== text(segments)) continue;
    turn.items = turn.items.filter((i) => !stored.includes(i));
    segments.forEach((i) => preferLive.add(i));
  }

  // 4. Live items worth keeping, placed in their turn (or in a live-only turn after history).
  const liveTurns: Turn[] = [];
  const liveTurnOf = new Map<string, Turn>();
  const keep = (item: ChatItem): boolean => {
    if (preferLive.has(item)) return true;
    switch (item.kind) {
      case 'user':
        return !aliasOf.has(item.id);
      case 'assistant':
        if (item.fromHistory) return false;
        if (item.streaming) return true;
        if (item.content.trim() === '') return false;
        return !assistantTexts.some((text) => text.includes(normalizeText(item.content)));
      case 'tool':
        // An action still in flight has no stored step yet, though its finished siblings do.
        if (item.actionId !== undefined)
          return (
            item.resultText === undefined && !historyActionIds.has(item.actionId) && !wholeCallIds.has(item.toolCallId)
          );
        return item.resultText === undefined && !historyToolIds.has(item.toolCallId);
      case 'notice':
        return item.seq === undefined || !noteSeqs.has(item.seq);
    }
  };
  for (const item of live) {
    if (!keep(item)) continue;
    if (item.kind === 'user') {
      const turn: Turn = { userId: item.id, items: [item] };
      liveTurns.push(turn);
      liveTurnOf.set(item.id, turn);
      continue;
    }
    const anchor = anchorOf(item);
    const target =
      anchor === undefined ? turns[0]! : (turnOfUser.get(anchor) ?? liveTurnOf.get(anchor) ?? turns[turns.length - 1]!);
    target.items.push(anchor === undefined || anchor === item.turn ? item : { ...item, turn: anchor });
  }

  // 5. Inside a turn: the user message first, the rest by server time (history first on ties).
  const out: ChatItem[] = [];
  for (const turn of [...turns, ...liveTurns]) {
    const [head, rest] =
      turn.userId !== undefined && turn.items[0]?.kind === 'user'
        ? [turn.items[0] as UserItem, turn.items.slice(1)]
        : [null, turn.items];
    if (head) out.push(head);
    out.push(
      ...rest
        .map((item, index) => ({ item, index }))
        .sort((a, b) => a.item.timestamp - b.item.timestamp || a.index - b.index)
        .map((x) => x.item),
    );
  }
  // 6. The task's one order, wherever the seqs are known.
  return sortBySeq(out);
}
