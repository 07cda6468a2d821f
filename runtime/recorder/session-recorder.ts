// MIMO_RECORD_DIR: records each task's session as JSONL, one file per task, so a session can be
// replayed as a fixture: socket frames in both directions with times relative to the task's
// first entry, LLM stream chunks, inspection records, and for an MCP session's tab (its own task)
// the MCP tool calls it served and their results. startMimo gives it a `redact` step, so text
// typed into password fields and credentials never reach the files.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { InspectionEvent } from 'xstate';
import { toInspectionRecord } from '../agent/inspection-hub.ts';

export type RecordedEntry =
  | {
      kind: 'frame';
      direction: 'in' | 'out';
      channel: 'frontend_message' | 'frontend_event' | 'plugin_message' | 'plugin_ack';
      payload: unknown;
    }
  | { kind: 'llm_chunk'; attempt: number; chunk: unknown }
  | { kind: 'inspection'; record: unknown }
  /** An MCP tool call reached the server (its arguments come with its result, redacted then). */
  | { kind: 'mcp_call'; callId: string; tool: string }
  /** The MCP client canceled that call (notifications/cancelled, or its connection went away). */
  | { kind: 'mcp_cancel'; callId: string; tool: string }
  /** A template run's status or progress changed (in the run's file). */
  | { kind: 'run_change'; status: string; doneSteps: number }
  /** The result of that call as the MCP client got it (`canceled`: the client had canceled it). */
  | {
      kind: 'mcp_result';
      callId: string;
      tool: string;
      arguments: unknown;
      result: unknown;
      canceled?: true;
    };

/** `task`: in a file that follows several tasks (a template run's), the task the entry is of. */
export type RecordedLine = RecordedEntry & { t: number; task?: string };

export interface SessionRecorder {
  record(taskId: string, entry: RecordedEntry): void;
  /**
   * From now on the frames of `taskId` are also written into the file `into` (with `task`), until
   * unlinked: a template run's file follows the tasks of its tabs.
   */
  link?(taskId: string, into: string): void;
  unlink?(taskId: string, into: string): void;
  /** Flushes and closes every file. */
  close(): Promise<void>;
  readonly dir: string;
}

const SAFE_TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function createSessionRecorder(options: {
  dir: string;
  clock: { now(): number };
  /** Applied to every entry before it is written (runtime/redaction: password fields, credentials). */
  redact?: (entry: RecordedEntry) => RecordedEntry;
}): Required<SessionRecorder> {
  mkdirSync(options.dir, { recursive: true });
  const files = new Map<string, { stream: WriteStream; startedAt: number }>();
  /** Files that follow a task's frames too, by task id. */
  const links = new Map<string, Set<string>>();
  const write = (key: string, entry: RecordedEntry, task?: string) => {
    let file = files.get(key);
    if (!file) {
      file = {
        stream: createWriteStream(join(options.dir, `${key}.jsonl`), { flags: 'a' }),
        startedAt: options.clock.now(),
      };
      file.stream.on('error', () => {});
      files.set(key, file);
    }
    const line: RecordedLine = { t: options.clock.now() - file.startedAt, ...(task ? { task } : {}), ...entry };
    file.stream.write(`${JSON.stringify(line)}\n`);
  };
  return {
    dir: options.dir,
    record(taskId, entry) {
      if (!SAFE_TASK_ID.test(taskId)) return;
      const redacted = options.redact ? options.redact(entry) : entry;
      write(taskId, redacted);
      if (entry.kind === 'frame') for (const into of links.get(taskId) ?? []) write(into, redacted, taskId);
    },
    link(taskId, into) {
      if (!SAFE_TASK_ID.test(taskId) || !SAFE_TASK_ID.test(into)) return;
      links.set(taskId, (links.get(taskId) ?? new Set()).add(into));
    },
    unlink(taskId, into) {
      const set = links.get(taskId);
      if (!set) return;
      set.delete(into);
      if (set.size === 0) links.delete(taskId);
    },
    async close() {
      await Promise.all([...files.values()].map((f) => new Promise<void>((resolve) => f.stream.end(resolve))));
      files.clear();
    },
  };
}

export function parseRecording(text: string): RecordedLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RecordedLine);
}

/** The inspection hub's `forward` that records each task's inspection records. */
export function recordInspection(
  recorder: SessionRecorder,
  clock: { now(): number },
): (taskId: string, event: InspectionEvent) => void {
  return (taskId, event) => {
    const record = toInspectionRecord(event, clock.now());
    if (record) recorder.record(taskId, { kind: 'inspection', record });
  };
}
