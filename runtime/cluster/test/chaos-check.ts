// The chaos run's invariants, checked on the history (Jepsen-style: what the clients were told,
// what the store holds, what the extensions ran), not on any node's own account:
// - lost: an acknowledged user message that is not in the store;
// - unanswered / answered twice: an acknowledged message with no / several outcomes: an assistant
//   answer, or (h22a honest outcomes) a failure outcome note, e.g. its extension went offline
//   with the node it was connected to; both carry the traceId of the user message (`trace-<id>`).
//   Failed turns are counted apart (failed); a message never run at all stays unanswered;
// - out of order: the answers of a task not in the order of its messages;
// - stranded: a task still running (or in takeover) at the end, or with an unanswered message;
// - executed twice: a click or a page open of one turn run by an extension under two actionIds
//   (a frame re-sent under its own actionId and deduplicated by the extension is counted apart);
// - events out of order: within one client connection, a repeated event id, two events with one
//   seq, or the chat as the web UI renders it (by seq) not causal: an earlier owner's event
//   emitted after a later owner's (renderProblem).
import type { BrowserActionFrame } from '../../test-util/fake-plugin.ts';
import { OWNER_SEQ_SPAN } from '../owner-seq.ts';

export interface StoredRow {
  task_id: string;
  id: string;
  role: string;
  content: string;
  trace: string | null;
  /** meta.outcome of a turn's failure note (system), else null. */
  outcome?: string | null;
  /** The failure note's error code (meta.error.code), else null. */
  code?: string | null;
}

/** One event as a client connection received it: its id, when its node emitted it, its seq. */
export interface ClientEvent {
  id: string;
  timestamp: number;
  type?: string;
  seq?: number;
}

export interface ChaosHistory {
  acknowledged: Map<string, string[]>;
  messages: StoredRow[];
  statuses: Map<string, string>;
  executed: BrowserActionFrame[];
  received: BrowserActionFrame[];
  events: Map<string, Array<ClientEvent[]>>;
}

export interface ChaosReport {
  tasks: number;
  acknowledged: number;
  answered: number;
  /** Messages whose turn ended with a failure outcome note instead of an answer. */
  failed: number;
  /** Those failure notes by error code. */
  failedBy: Record<string, number>;
  lost: string[];
  unanswered: string[];
  answeredTwice: string[];
  outOfOrder: string[];
  stranded: string[];
  executedTwice: string[];
  resentSameId: number;
  eventsOutOfOrder: string[];
  /** Events that reached a client after one with a higher seq (rendered in place by seq, not a fault). */
  eventsArrivedLate: number;
  ok: boolean;
}

export function checkHistory(history: ChaosHistory): ChaosReport {
  const byTask = new Map<string, StoredRow[]>();
  for (const row of history.messages) byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row]);
  const report: ChaosReport = {
    tasks: history.acknowledged.size,
    acknowledged: 0,
    answered: 0,
    failed: 0,
    failedBy: {},
    lost: [],
    unanswered: [],
    answeredTwice: [],
    outOfOrder: [],
    stranded: [],
    executedTwice: [],
    resentSameId: 0,
    eventsOutOfOrder: [],
    eventsArrivedLate: 0,
    ok: false,
  };

  for (const [taskId, ids] of history.acknowledged) {
    const rows = byTask.get(taskId) ?? [];
    report.acknowledged += ids.length;
    const ends = (r: StoredRow) => r.role === 'assistant' || (r.role === 'system' && !!r.outcome);
    const answerTraces = rows.filter((r) => ends(r) && r.trace).map((r) => r.trace!);
    const failedTraces = new Set(rows.filter((r) => r.role === 'system' && r.outcome && r.trace).map((r) => r.trace!));
    let stranded = false;
    for (const id of ids) {
      if (!rows.some((r) => r.role === 'user' && r.id === id)) report.lost.push(`${taskId}/${id}`);
      // A failed last step leaves both the model's text and the failure note: one outcome.
      const answers = rows.filter((r) => r.role === 'assistant' && r.trace === `trace-${id}`).length;
      const failures = rows.filter((r) => r.role === 'system' && r.outcome && r.trace === `trace-${id}`).length;
      const n = Math.max(answers, failures);
      if (n === 0) {
        report.unanswered.push(`${taskId}/${id}`);
        stranded = true;
      } else report.answered++;
      if (failedTraces.has(`trace-${id}`)) {
        report.failed++;
        const note = rows.find((r) => r.role === 'system' && r.outcome && r.trace === `trace-${id}`);
        const code = note?.code ?? 'unknown';
        report.failedBy[code] = (report.failedBy[code] ?? 0) + 1;
      }
      if (n > 1) report.answeredTwice.push(`${taskId}/${id} x${n}`);
    }
    const userOrder = rows.filter((r) => r.role === 'user').map((r) => `trace-${r.id}`);
    const answered = answerTraces.filter((t, i) => answerTraces.indexOf(t) === i);
    const expected = userOrder.filter((t) => answered.includes(t));
    if (answered.join() !== expected.join()) report.outOfOrder.push(taskId);
    const status = history.statuses.get(taskId);
    if (status === 'running' || status === 'takeover' || stranded) report.stranded.push(`${taskId} (${status})`);
  }

  const runs = new Map<string, Set<string>>();
  for (const frame of history.executed) {
    const [name, params] = Object.entries(frame.action)[0]!;
    if (name !== 'browser_click' && name !== 'task_start') continue;
    const key = `${frame.taskId} ${(frame as { traceId?: string }).traceId} ${name} ${JSON.stringify(params)}`;
    runs.set(key, (runs.get(key) ?? new Set()).add(frame.id));
  }
  for (const [key, ids] of runs) if (ids.size > 1) report.executedTwice.push(`${key} x${ids.size}`);
  const seen = new Map<string, number>();
  for (const frame of history.received) seen.set(frame.id, (seen.get(frame.id) ?? 0) + 1);
  for (const n of seen.values()) if (n > 1) report.resentSameId += n - 1;

  for (const [taskId, connections] of history.events) {
    for (const events of connections) {
      const problem = renderProblem(events);
      if (problem) report.eventsOutOfOrder.push(`${taskId}: ${problem}`);
      report.eventsArrivedLate += arrivedLate(events);
    }
  }

  report.ok = [
    report.lost,
    report.unanswered,
    report.answeredTwice,
    report.outOfOrder,
    report.stranded,
    report.executedTwice,
    report.eventsOutOfOrder,
  ].every((list) => list.length === 0);
  return report;
}

/**
 * What is wrong with the chat one connection shows, or null. The web UI renders a task's events
 * by seq (web/src/models/chat-order.ts), whatever order they arrive in, so the rendered order is
 * the events sorted by seq. One owner's seqs come from one counter, in the order things happened
 * on it; each later owner numbers above every earlier one (owner-seq.ts). So the rendered order is
 * causal when every event of an earlier owner was emitted before the first event of a later one
 * (one machine, one clock): an old owner telling something after the new one took over (a zombie)
 * or a new owner numbering below the old one breaks it. Two different events with one seq have no
 * order; an event twice is a duplicate. An event without a seq (a subscription's fresh scope
 * envelope, replacing the last) takes no place.
 */
export function renderProblem(events: readonly ClientEvent[]): string | null {
  const ids = new Set<string>();
  const bySeq = new Map<number, string>();
  for (const e of events) {
    if (ids.has(e.id)) return `event ${e.id} (${e.type}) received twice`;
    ids.add(e.id);
    if (e.seq === undefined) continue;
    const other = bySeq.get(e.seq);
    if (other) return `seq ${e.seq} given to two events (${other}, ${e.id} ${e.type})`;
    bySeq.set(e.seq, e.id);
  }
  const owners = new Map<number, ClientEvent[]>();
  for (const e of events) {
    if (e.seq === undefined) continue;
    const owner = Math.floor(e.seq / OWNER_SEQ_SPAN);
    owners.set(owner, [...(owners.get(owner) ?? []), e]);
  }
  let earlier: ClientEvent | undefined; // the last emitted event of every earlier owner
  for (const owner of [...owners.keys()].sort((a, b) => a - b)) {
    const list = owners.get(owner)!;
    const first = list.reduce((a, b) => (b.timestamp < a.timestamp ? b : a));
    if (earlier && first.timestamp < earlier.timestamp)
      return (
        `seq ${earlier.seq} (${earlier.type}) of an earlier owner is rendered before seq ${first.seq} ` +
        `(${first.type}) of owner ${owner}, emitted ${earlier.timestamp - first.timestamp} ms earlier`
      );
    const last = list.reduce((a, b) => (b.timestamp > a.timestamp ? b : a));
    if (!earlier || last.timestamp > earlier.timestamp) earlier = last;
  }
  return null;
}

/** How many events arrived after an event with a higher seq. */
function arrivedLate(events: readonly ClientEvent[]): number {
  let highest = -Infinity;
  let late = 0;
  for (const e of events) {
    if (e.seq === undefined) continue;
    if (e.seq < highest) late++;
    highest = Math.max(highest, e.seq);
  }
  return late;
}
