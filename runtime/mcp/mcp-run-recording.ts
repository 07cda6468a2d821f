// MIMO_RECORD_DIR for template runs: a run gets a file of its own, named by its run id, since its
// steps run in tabs that are tasks of their own (a worker tab per step, and the session's main tab
// for templates that use it), each with its own file. The run's file has the calls of the run's
// client (run_task_template as `mcp_call` when the run is created, before any step starts, and
// `mcp_result` when it returns; get_task_run and cancel_task_run naming the run; an `mcp_cancel`
// if the client cancels one) and, by the recorder's links, every frame of the tasks that serve
// the run while they do, each line with its `task`, and each change of the run's status or
// progress (`run_change`): one file replays the whole run
// (runtime/session-replay/replay-mcp-run.ts).
// A tab is linked when it opens for the run's session while the run is live, or at the run's
// creation for a main tab already open. It is unlinked when it closes, or at the run's end when
// it outlives the run (a kept session: its later browser-shell calls are not the run's).
// list_task_runs, get_artifact and the other tools are not recorded (they name no one run).
import type { RecordedEntry } from '../recorder/session-recorder.ts';
import type { BrowserSessions } from './browser/browser-sessions.ts';
import type { RunManager } from './runs/run-manager.ts';
import { createRecordedCall } from './recorded-call.ts';
import type { McpTool } from './tools/tool-definition.ts';

/** The session recorder, as the run recording uses it. */
export interface McpRunSink {
  record(file: string, entry: RecordedEntry): void;
  link?(taskId: string, into: string): void;
  unlink?(taskId: string, into: string): void;
}

export interface McpRunRecording {
  /** For createBrowserSessions' `onTaskOpening`. */
  taskOpening(sessionId: string, role: 'main' | 'worker', taskId: string): void;
  /** For createBrowserSessions' `onTaskClosed`. */
  taskClosed(sessionId: string, taskId: string): void;
  /** The tools, template runs recorded. */
  wrap(tools: readonly McpTool[]): McpTool[];
}

const RUN_CALLS = new Set(['get_task_run', 'cancel_task_run']);

export function createMcpRunRecording(deps: {
  sink: McpRunSink;
  /** Created after this, so given lazily. */
  sessions: () => BrowserSessions;
  runs: () => RunManager;
}): McpRunRecording {
  const { sink } = deps;
  let calls = 0;
  /** Runs not ended yet, by session id. */
  const liveRuns = new Map<string, Set<string>>();
  /** Every run recorded in this process (their later get/cancel calls go into their files). */
  const recorded = new Set<string>();
  /** The runs each linked task serves. */
  const linked = new Map<string, Set<string>>();

  function link(taskId: string, runId: string): void {
    sink.link?.(taskId, runId);
    linked.set(taskId, (linked.get(taskId) ?? new Set()).add(runId));
  }
  function unlink(taskId: string, runId: string): void {
    sink.unlink?.(taskId, runId);
    const runs = linked.get(taskId);
    runs?.delete(runId);
    if (runs?.size === 0) linked.delete(taskId);
  }

  function runOpened(runId: string, sessionId: string): void {
    recorded.add(runId);
    liveRuns.set(sessionId, (liveRuns.get(sessionId) ?? new Set()).add(runId));
    const session = deps.sessions().get(sessionId);
    if (session?.main && !session.main.closed) link(session.main.taskId, runId);
    for (const worker of session?.workers ?? []) link(worker.taskId, runId);
    // Each change of its status or progress is recorded: a replay polls get_task_run where the recording did.
    let last = '';
    void deps
      .runs()
      .waitForEnd(runId, (run) => {
        const now = `${run.status} ${run.progress.doneSteps}`;
        if (now === last) return;
        last = now;
        sink.record(runId, { kind: 'run_change', status: run.status, doneSteps: run.progress.doneSteps });
      })
      .catch(() => {})
      .then(() => {
        const runs = liveRuns.get(sessionId);
        runs?.delete(runId);
        if (runs?.size === 0) liveRuns.delete(sessionId);
        // The run's end closes a session it made (sessions.close has forgotten it by now): its tabs
        // stay linked until their close settles. A session that stays keeps its tabs, not the run's.
        if (deps.sessions().get(sessionId) === undefined) return;
        for (const [taskId, runs] of [...linked]) if (runs.has(runId)) unlink(taskId, runId);
      });
  }

  /** Records one call into the run's file: the call when it is known to be the run's, its result when it returns. */
  function recordedCall(tool: McpTool): McpTool {
    return {
      ...tool,
      async call(args, ctx) {
        const call = createRecordedCall(sink, `mcp-run-call-${++calls}`, tool);
        const named = (args as { runId?: unknown } | null)?.runId;
        if (RUN_CALLS.has(tool.name) && typeof named === 'string' && recorded.has(named)) call.begin(named);
        if (tool.name !== 'run_task_template') return call.run(args, ctx);
        return call.run(args, ctx, {
          ...ctx,
          runCreated: (run) => {
            ctx.runCreated?.(run);
            call.begin(run.runId);
            runOpened(run.runId, run.sessionId);
          },
        });
      },
    };
  }

  return {
    taskOpening(sessionId, _role, taskId) {
      for (const runId of liveRuns.get(sessionId) ?? []) link(taskId, runId);
    },
    taskClosed(_sessionId, taskId) {
      for (const runId of [...(linked.get(taskId) ?? [])]) unlink(taskId, runId);
    },
    wrap: (tools) =>
      tools.map((tool) => (tool.name === 'run_task_template' || RUN_CALLS.has(tool.name) ? recordedCall(tool) : tool)),
  };
}
