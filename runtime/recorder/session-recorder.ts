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
  /** The result of that call as the MCP client got it (`canceled`: the client had canceled it). */
  | {
      kind: 'mcp_result';
      callId: string;
      tool: string;
      arguments: unknown;
      result: unknown;
      canceled?: true;
    };

export type RecordedLine = RecordedEntry & { t: number };

export interface SessionRecorder {
  record(taskId: string, entry: RecordedEntry): void;
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
}): SessionRecorder {
  mkdirSync(options.dir, { recursive: true });
  const files = new Map<string, { stream: WriteStream; startedAt: number }>();
  return {
    dir: options.dir,
    record(taskId, entry) {
      if (!SAFE_TASK_ID.test(taskId)) return;
      let file = files.get(taskId);
      if (!file) {
        file = {
          stream: createWriteStream(join(options.dir, `${taskId}.jsonl`), { flags: 'a' }),
          startedAt: options.clock.now(),
        };
        file.stream.on('error', () => {});
        files.set(taskId, file);
      }
      const line: RecordedLine = {
        t: options.clock.now() - file.startedAt,
        ...(options.redact ? options.redact(entry) : entry),
      };
      file.stream.write(`${JSON.stringify(line)}\n`);
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
