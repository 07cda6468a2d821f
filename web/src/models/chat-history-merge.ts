// Folds a freshly fetched history (GET /api/task/:taskId) into what the chat already shows, so
// that opening a task twice or reconnecting never shows a message twice and never loses what
// only the live stream carried (tool steps with thumbnails, notices, text still streaming).
//
// History is authoritative for user and assistant text. Live items are kept when history cannot
// contain them: a user message still sending or failed, an assistant segment still streaming, a
// finished segment whose text no history message contains, tool steps history does not list,
// notices. Placement is by turn (the user message an item answers), then by server timestamp
// inside the turn, so a browser clock that differs from the server's cannot reorder a turn.
import type { TaskMessage } from '../../../transport/contracts/http.ts';
import { normalizeText, type ChatItem, type ToolItem, type UserItem } from './chat-items.ts';
import { toolItemFromHistory } from './history-tool-result.ts';

/** A live user message with the same text this close to a history one is the same message. */
const SAME_MESSAGE_WINDOW_MS = 120_000;

interface Turn {
  userId: string | undefined;
  items: ChatItem[];
}

function historyItems(m: TaskMessage, turn: string | undefined, liveTools: Map<string, ToolItem[]>): ChatItem[] {
  const item = historyItem(m, turn, liveTools);
  return Array.isArray(item) ? item : item ? [item] : [];
}

function historyItem(m: TaskMessage, turn: string | undefined, liveTools: Map<string, ToolItem[]>): ChatItem | ChatItem[] | null {
  switch (m.role) {
    case 'user':
      return { kind: 'user', key: `h:${m.id}`, id: m.id, content: m.content, timestamp: m.timestamp, delivery: 'sent' };
    case 'assistant':
      if (m.content.trim() === '') return null; // a turn step that only called tools
      return { kind: 'assistant', key: `h:${m.id}`, id: m.id, content: m.content, timestamp: m.timestamp, streaming: false, fromHistory: true, ...(turn ? { turn } : {}) };
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
      return null;
  }
}

export function mergeHistory(live: readonly ChatItem[], messages: readonly TaskMessage[]): ChatItem[] {
  const liveTools = new Map<string, ToolItem[]>();
  for (const item of live) {
    if (item.kind === 'tool' && item.resultText === undefined) liveTools.set(item.toolCallId, [...(liveTools.get(item.toolCallId) ?? []), item]);
  }

  // 1. History, cut into turns at each user message.
  const turns: Turn[] = [{ userId: undefined, items: [] }];
  const historyToolIds = new Set<string>();
  const historyActionIds = new Set<string>();
  /** Tool calls stored as one whole result (no actionId): their live steps were placed with it. */
  const wholeCallIds = new Set<string>();
  const assistantTexts: string[] = [];
  const historyUsers: TaskMessage[] = [];
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
      (m) => !claimed.has(m.id) && normalizeText(m.content) === text && Math.abs(m.timestamp - item.timestamp) <= SAME_MESSAGE_WINDOW_MS,
    );
    if (twin) {
      aliasOf.set(item.id, twin.id);
      claimed.add(twin.id);
    }
  }

  // 3. A turn whose live segments spell exactly its stored assistant text keeps the segments
  //    (they sit between the tool steps where they were said) instead of the stored copy.
  const anchorOf = (item: ChatItem) => (item.kind === 'user' ? undefined : item.turn === undefined ? undefined : (aliasOf.get(item.turn) ?? item.turn));
  const squash = (text: string) => text.replace(/\s+/g, '');
  const preferLive = new Set<ChatItem>();
  for (const turn of turns) {
    if (!turn.userId) continue;
    const stored: ChatItem[] = turn.items.filter((i) => i.kind === 'assistant');
    const segments = live.filter((i) => i.kind === 'assistant' && !i.fromHistory && !i.streaming && anchorOf(i) === turn.userId);
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
        if (item.actionId !== undefined) return item.resultText === undefined && !historyActionIds.has(item.actionId) && !wholeCallIds.has(item.toolCallId);
        return item.resultText === undefined && !historyToolIds.has(item.toolCallId);
      case 'notice':
        return true;
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
    const target = anchor === undefined ? turns[0]! : (turnOfUser.get(anchor) ?? liveTurnOf.get(anchor) ?? turns[turns.length - 1]!);
    target.items.push(anchor === undefined || anchor === item.turn ? item : { ...item, turn: anchor });
  }

  // 5. Inside a turn: the user message first, the rest by server time (history first on ties).
  const out: ChatItem[] = [];
  for (const turn of [...turns, ...liveTurns]) {
    const [head, rest] = turn.userId !== undefined && turn.items[0]?.kind === 'user' ? [turn.items[0] as UserItem, turn.items.slice(1)] : [null, turn.items];
    if (head) out.push(head);
    out.push(...rest.map((item, index) => ({ item, index })).sort((a, b) => a.item.timestamp - b.item.timestamp || a.index - b.index).map((x) => x.item));
  }
  return out;
}
