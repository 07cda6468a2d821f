// The part of an MCP replay that replayMcpSession and replayMcpRun share: a fresh session runtime
// with /mcp and a watched recorder, a fake plugin with the recording's clientId, the real MCP SDK
// client, and each recorded input (a call, a cancel, a message the plugin sent on its own;
// mcpReplayInputs) sent once the live server has got as far as the recording had before it (calls
// arrived, plugin frames exchanged, frontend events emitted, calls returned, run changes). The
// callers say what each live entry counts for, how recorded ids become live ones, and which live
// file to read back.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createOfflinePlanner } from '../llm/offline-planner/index.ts';
import { recordedFrontendEvents } from '../recorder/event-descriptors.ts';
import { mcpReplayInputs, type McpReplayInput } from '../recorder/mcp-replay.ts';
import { pluginClientIdOf, type ReplayAnswererOptions } from '../recorder/replay.ts';
import {
  createSessionRecorder,
  parseRecording,
  type RecordedEntry,
  type RecordedLine,
  type SessionRecorder,
} from '../recorder/session-recorder.ts';
import { startFakePlugin, type Answerer, type BrowserActionFrame, type FakePlugin } from '../test-util/fake-plugin.ts';
import type { UrlPolicy } from '../url-policy/index.ts';
import { fixtureUrlPolicy, startSessionRuntime, type SessionTimings } from './session-runtime.ts';
import { createWokenWait } from './woken-wait.ts';

type Obj = Record<string, unknown>;

/** How far the live server got, counted as McpReplayProgress counts the recording. */
export interface McpLiveProgress {
  calls: number;
  pluginFrames: number;
  events: number;
  returned: number;
  runChanges: number;
}

export interface McpCallMade {
  tool: string;
  arguments: Obj;
  /** What the client got (undefined while it waits, or when it canceled). */
  result: unknown;
  canceled?: boolean;
}

export function createMcpInputDriver(deps: {
  inputs: readonly McpReplayInput[];
  live: McpLiveProgress;
  client: Client;
  plugin: FakePlugin | undefined;
  /** The recorded ids (task, run) in a call's arguments or a plugin message, as the live ones. */
  toLive(value: Obj): Obj;
}) {
  const { inputs, live } = deps;
  /** The calls in the order they were made. */
  const made: McpCallMade[] = [];
  /** Acks of the plugin-originated messages sent. */
  const pluginAcks: unknown[] = [];
  const aborts = new Map<string, AbortController>();
  const calls: Array<Promise<void>> = [];
  let next = 0;
  let sending: Promise<void> = Promise.resolve();

  const due = (input: McpReplayInput) =>
    input.afterCalls <= live.calls &&
    input.afterPluginFrames <= live.pluginFrames &&
    input.afterEvents <= live.events &&
    input.afterResults <= live.returned &&
    input.afterRunChanges <= live.runChanges;

  async function send(input: McpReplayInput): Promise<void> {
    if (input.channel === 'mcp_call') {
      const { tool, callId } = input.call;
      const call: McpCallMade = { tool, arguments: deps.toLive(input.call.arguments), result: undefined };
      made.push(call);
      const abort = new AbortController();
      aborts.set(callId, abort);
      calls.push(
        deps.client.callTool({ name: tool, arguments: call.arguments }, undefined, { signal: abort.signal }).then(
          (result) => void (call.result = result),
          (error: Error) => {
            if (abort.signal.aborted) call.canceled = true;
            else call.result = { error: error.message };
          },
        ),
      );
    } else if (input.channel === 'mcp_cancel') {
      aborts.get(input.callId)?.abort();
    } else if (input.channel === 'plugin_message') {
      const { plugin } = deps;
      pluginAcks.push(
        await (plugin
          ? plugin.send(deps.toLive(input.payload)).catch((error: Error) => ({ error: error.message }))
          : { error: 'no plugin in this recording' }),
      );
    }
  }

  return {
    made,
    pluginAcks,
    /** Sends every input now due, in order (call it whenever the live progress moved). */
    flush(): void {
      sending = sending.then(async () => {
        while (next < inputs.length && due(inputs[next]!)) await send(inputs[next++]!);
      });
    },
    /** Every input was sent. */
    done: () => next >= inputs.length,
    /** The sending settled; with `calls`, every call the client made too. */
    async settled(options: { calls: boolean }): Promise<void> {
      await sending;
      if (options.calls) await Promise.all(calls);
    },
  };
}

/** What a live entry moves on, as McpReplayProgress counts the recording (undefined: nothing). */
export function progressOf(entry: RecordedEntry): keyof McpLiveProgress | undefined {
  if (entry.kind === 'mcp_call') return 'calls';
  // Returned on the server (as the recording counts it), whether or not the client still waited.
  if (entry.kind === 'mcp_result') return 'returned';
  if (entry.kind === 'run_change') return 'runChanges';
  if (entry.kind !== 'frame') return undefined;
  if (entry.channel === 'frontend_event') return 'events';
  return entry.channel === 'plugin_message' || entry.channel === 'plugin_ack' ? 'pluginFrames' : undefined;
}

/** How a recording is replayed (replayMcpSession, replayMcpRun). */
export interface McpReplayOptions {
  /** The timings the recording was made with (FIXTURE_TIMINGS for fixtures/sessions). */
  timings?: SessionTimings;
  /** The URL policy it was recorded under (default fixtureUrlPolicy: loopback allowed, no DNS). */
  urlPolicy?: UrlPolicy;
  answerer?: ReplayAnswererOptions;
  /** Give up waiting for the recorded calls and events after this long (default 15 s for a session, 20 s for a template run). */
  timeoutMs?: number;
  /** After the last expected event, wait this long for extra ones (default 150 ms). */
  settleMs?: number;
}

export interface McpReplayDrive extends Omit<McpReplayOptions, 'answerer' | 'timeoutMs'> {
  /** The recording (its inputs, its plugin's clientId, how many events and calls to wait for). */
  lines: RecordedLine[];
  /** Names the replay's temp folder and MCP client. */
  label: string;
  timeoutMs: number;
  answer: Answerer;
  /** What a live entry moves on (undefined: nothing); `key` is the file it goes to. */
  counts(key: string, entry: RecordedEntry): keyof McpLiveProgress | undefined;
  /** The recorder linked or unlinked a task's frames to a file. */
  linked?(taskId: string, into: string, on: boolean): void;
  toLive(value: Obj): Obj;
  /** The live file to read back (its key), once the replay is over. */
  liveFile(): string | undefined;
}

export interface McpReplayDriven {
  made: McpCallMade[];
  pluginAcks: unknown[];
  /** The live file's lines. */
  lines: RecordedLine[];
  pluginFrames: BrowserActionFrame[];
  timedOut: boolean;
}

export async function driveMcpReplay(o: McpReplayDrive): Promise<McpReplayDriven> {
  const inputs = mcpReplayInputs(o.lines);
  const unsupported = inputs.find((input) => input.channel === 'frontend_message');
  if (unsupported) throw new Error(`${o.label} does not replay a message from the web UI (at ${unsupported.t} ms)`);
  const expectedEvents = recordedFrontendEvents(o.lines).length;
  const expectedCalls = inputs.filter((input) => input.channel === 'mcp_call').length;
  const recordDir = mkdtempSync(join(tmpdir(), `mimo-${o.label}-`));
  const files = createSessionRecorder({ dir: recordDir, clock: { now: () => Date.now() } });
  const live: McpLiveProgress = { calls: 0, pluginFrames: 0, events: 0, returned: 0, runChanges: 0 };
  const waiting = createWokenWait();
  const recorder: SessionRecorder = {
    dir: files.dir,
    close: () => files.close(),
    link(taskId, into) {
      files.link(taskId, into);
      o.linked?.(taskId, into, true);
    },
    unlink(taskId, into) {
      files.unlink(taskId, into);
      o.linked?.(taskId, into, false);
    },
    record(key, entry) {
      files.record(key, entry);
      const moved = o.counts(key, entry);
      if (!moved) return;
      live[moved]++;
      waiting.wake();
    },
  };
  const runtime = await startSessionRuntime({
    llm: createOfflinePlanner(),
    recorder,
    ...(o.timings ? { timings: o.timings } : {}),
    mcp: { urlPolicy: o.urlPolicy ?? fixtureUrlPolicy() },
  });
  let plugin: FakePlugin | undefined;
  const client = new Client({ name: `mimo-${o.label}`, version: '0.0.0' });
  let driver: ReturnType<typeof createMcpInputDriver> | undefined;
  let timedOut = false;
  try {
    const clientId = pluginClientIdOf(o.lines);
    if (clientId) plugin = await startFakePlugin({ url: runtime.url, clientId, answer: o.answer });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime.url}/mcp`)));
    const inputDriver = (driver = createMcpInputDriver({ inputs, live, client, plugin, toLive: o.toLive }));
    timedOut = await waiting.until(
      () => live.events >= expectedEvents && inputDriver.done() && live.returned >= expectedCalls,
      o.timeoutMs,
      inputDriver.flush,
    );
    await inputDriver.settled({ calls: !timedOut });
    await new Promise((resolve) => setTimeout(resolve, o.settleMs ?? 150));
  } finally {
    await client.close().catch(() => {});
    plugin?.close();
    await runtime.close();
    await recorder.close();
  }
  let lines: RecordedLine[] = [];
  try {
    const file = o.liveFile();
    if (file) lines = parseRecording(readFileSync(join(recordDir, `${file}.jsonl`), 'utf8'));
  } finally {
    rmSync(recordDir, { recursive: true, force: true });
  }
  return {
    made: driver?.made ?? [],
    pluginAcks: driver?.pluginAcks ?? [],
    lines,
    pluginFrames: [...(plugin?.received ?? [])],
    timedOut,
  };
}
