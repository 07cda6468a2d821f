// MIMO_RECORD_DIR for MCP sessions: each browser-shell call is recorded into the session file of
// the MCP session's task (its main tab's own task actor, page-driver.ts), beside the browser frames,
// frontend events and inspection records that task already gets there: an `mcp_call` entry when
// the call arrives (or, for the call that opens the tab, just before the tab's task starts), an
// `mcp_cancel` entry if the client cancels it, and an `mcp_result` entry with the arguments and
// the result (what the client got, unless it had canceled the call), written when it returns
// (so a password typed by the call is a known secret by then and the recorder's redaction hides
// it in the arguments too). A call that never had a tab (usage error on a new session) has no task
// file and is not recorded. Template runs have files of their own (mcp-run-recording.ts).
import type { RecordedEntry } from '../recorder/session-recorder.ts';
import type { BrowserSessions } from './browser/browser-sessions.ts';
import { createRecordedCall, type RecordedCall } from './recorded-call.ts';
import type { McpTool } from './tools/tool-definition.ts';

/** Where the entries go (the session recorder). */
export interface McpCallSink {
  record(taskId: string, entry: RecordedEntry): void;
}

export interface McpCallRecording {
  /** For createBrowserSessions' `onTaskOpening`: a call waiting for its session's tab starts that tab's file. */
  taskOpening(sessionId: string, role: 'main' | 'worker', taskId: string): void;
  /** The tools, browser-shell recorded. */
  wrap(tools: readonly McpTool[]): McpTool[];
}

export function createMcpCallRecording(deps: {
  sink: McpCallSink;
  /** The browser sessions (created after this, so given lazily). */
  sessions: () => BrowserSessions;
}): McpCallRecording {
  let calls = 0;
  /** Calls of a session that has no live tab yet, by session id, oldest first. */
  const waiting = new Map<string, RecordedCall[]>();

  function forget(sessionId: string, call: RecordedCall): void {
    const list = waiting.get(sessionId);
    if (!list) return;
    const rest = list.filter((c) => c !== call);
    if (rest.length) waiting.set(sessionId, rest);
    else waiting.delete(sessionId);
  }

  function recorded(tool: McpTool): McpTool {
    return {
      ...tool,
      async call(args, ctx) {
        const sessionId = (args as { session_id?: unknown } | null)?.session_id;
        if (typeof sessionId !== 'string') return tool.call(args, ctx);
        const call = createRecordedCall(deps.sink, `mcp-call-${++calls}`, tool);
        const main = deps.sessions().get(sessionId)?.main;
        if (main && !main.closed) call.begin(main.taskId);
        else waiting.set(sessionId, [...(waiting.get(sessionId) ?? []), call]);
        try {
          return await call.run(args, ctx);
        } finally {
          forget(sessionId, call);
        }
      },
    };
  }

  return {
    taskOpening(sessionId, role, taskId) {
      if (role !== 'main') return;
      const list = waiting.get(sessionId);
      if (!list) return;
      waiting.delete(sessionId);
      for (const call of list) call.begin(taskId);
    },
    wrap: (tools) => tools.map((tool) => (tool.name === 'browser-shell' ? recorded(tool) : tool)),
  };
}
