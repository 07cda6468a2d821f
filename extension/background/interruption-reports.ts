// Where page interruptions go: each one is sent at once as a `page_interruption` plugin message
// (the server relays it to the task's events, so the web UI shows it), and kept per task until the
// next action result of that task carries it to the agent as a warning.
import { PROTOCOL_VERSION } from '../../transport/contracts/index.ts';
import type { PageInterruption } from '../../transport/contracts/index.ts';

export type InterruptionBody = Omit<
  PageInterruption,
  'v' | 'type' | 'id' | 'taskId' | 'clientId' | 'timestamp' | 'traceId'
>;

/** At most this many warnings wait for the agent per task; older ones are summarised. */
export const MAX_PENDING_PER_TASK = 20;
/** How long a result waits for interruptions still being handled (a pop-up's tab being made). */
export const SETTLE_WAIT_MS = 1_500;

export interface InterruptionReports {
  report(taskId: string, body: InterruptionBody): void;
  /** Work (e.g. opening a background tab) whose report a result should wait for. */
  track(taskId: string, work: Promise<unknown>): void;
  /** The warnings gathered for the task since the last drain (waits briefly for tracked work). */
  drain(taskId: string): Promise<string[]>;
}

export interface InterruptionReportsDeps {
  clientId(): string | null;
  send(message: PageInterruption): void;
  now(): number;
  newId(): string;
  sleep(ms: number): Promise<void>;
  log?(message: string): void;
}

export function createInterruptionReports(deps: InterruptionReportsDeps): InterruptionReports {
  const pending = new Map<string, { lines: string[]; dropped: number }>();
  const work = new Map<string, Set<Promise<unknown>>>();

  return {
    report(taskId, body) {
      const entry = pending.get(taskId) ?? { lines: [], dropped: 0 };
      pending.set(taskId, entry);
      entry.lines.push(`tab ${body.tabId}: ${body.message}`);
      if (entry.lines.length > MAX_PENDING_PER_TASK) {
        entry.lines.shift();
        entry.dropped++;
      }
      const clientId = deps.clientId();
      if (!clientId) {
        deps.log?.(`page_interruption not sent (no client id yet): ${body.message}`);
        return;
      }
      deps.send({
        v: PROTOCOL_VERSION,
        type: 'page_interruption',
        id: `int-${deps.newId()}`,
        taskId,
        clientId,
        timestamp: deps.now(),
        ...body,
      });
    },
    track(taskId, promise) {
      const set = work.get(taskId) ?? new Set();
      work.set(taskId, set);
      const settled = promise.then(
        () => {},
        () => {},
      );
      set.add(settled);
      void settled.then(() => set.delete(settled));
    },
    async drain(taskId) {
      const open = work.get(taskId);
      if (open && open.size > 0) await Promise.race([Promise.all(open), deps.sleep(SETTLE_WAIT_MS)]);
      const entry = pending.get(taskId);
      if (!entry) return [];
      pending.delete(taskId);
      const lines = entry.lines.map((line) => `page interruption (${line})`);
      if (entry.dropped > 0) lines.unshift(`${entry.dropped} earlier page interruptions not listed`);
      return lines;
    },
  };
}
