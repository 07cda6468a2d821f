// Replays one recorded session through a fresh runtime: the real `openai` SDK against the mock
// OpenAI server streaming the recorded chunks, a fake plugin answering from the recording, and a
// web client on the real socket.io-client that sends the recorded inputs event-driven (each once
// as many of the task's frontend events have arrived as had been emitted before it when recorded).
import { createWokenWait } from './woken-wait.ts';
import { io } from 'socket.io-client';
import type { LlmGateway } from '../llm/llm-types.ts';
import { startMockOpenAiServer, type MockOpenAiServer } from '../llm/mock-openai-server.ts';
import { startFakePlugin, type BrowserActionFrame, type FakePlugin } from '../test-util/fake-plugin.ts';
import {
  describeFrontendEvents,
  describeTaskMessages,
  expectedTaskOutcome,
  inTaskOrder,
  isLegacyRecording,
  recordedFrontendEvents,
  type EventDescriptor,
  type TaskOutcome,
} from '../recorder/event-descriptors.ts';
import {
  createReplayAnswerer,
  llmScriptOf,
  pluginClientIdOf,
  replayInputs,
  taskIdOf,
  type ReplayAnswererOptions,
} from '../recorder/replay.ts';
import type { RecordedLine } from '../recorder/session-recorder.ts';
import {
  openAiGatewayFor,
  startSessionRuntime,
  type SessionRuntimeOptions,
  type SessionTimings,
} from './session-runtime.ts';

export interface ReplayOptions {
  /** The timings the session was recorded with (FIXTURE_TIMINGS for fixtures/sessions). */
  timings?: SessionTimings;
  /** Instead of the mock server on the recorded chunks (e.g. the offline planner for sessions recorded with it). */
  llm?: LlmGateway;
  answerer?: ReplayAnswererOptions;
  /** Give up waiting for the recorded number of events after this long (default 15 s). */
  timeoutMs?: number;
  /** After the last expected event, wait this long for extra ones (default 150 ms). */
  settleMs?: number;
  /** More orchestrator options, as the session was recorded with (e.g. a URL re-check). */
  orchestrator?: SessionRuntimeOptions['orchestrator'];
}

export interface ReplayOutcome {
  taskId: string;
  expected: { events: EventDescriptor[]; task: TaskOutcome };
  actual: { events: EventDescriptor[]; task: TaskOutcome };
  /** Live envelopes of the task, as received by the web client. */
  envelopes: Array<Record<string, unknown>>;
  /** Acks of the inputs sent, in order. */
  inputAcks: unknown[];
  /** Actions the recording had no answer for; recorded answers never asked for. */
  unexpectedActions: string[];
  unusedActions: string[];
  /** Bodies of the chat-completion requests the mock server got (empty with `options.llm`). */
  llmRequests: Array<Record<string, unknown>>;
  /** The browser_action frames the fake plugin received, in order (a retry appears twice). */
  pluginFrames: BrowserActionFrame[];
  timedOut: boolean;
}

/** Events only a runtime with the person guard tells (task scope, held steps). */
const GUARD_EVENTS = new Set(['taskScope', 'confirmationRequested', 'confirmationResolved']);

export async function replaySession(lines: RecordedLine[], options: ReplayOptions = {}): Promise<ReplayOutcome> {
  const taskId = taskIdOf(lines);
  if (!taskId) throw new Error('the recording has no frame with a taskId');
  const expectedEnvelopes = recordedFrontendEvents(lines);
  // A recording without seqs has no userMessage events either: the live ones are not counted.
  const legacy = isLegacyRecording(expectedEnvelopes);
  const inputs = replayInputs(lines);
  const clientId = pluginClientIdOf(lines);
  const answerer = createReplayAnswerer(lines, options.answerer);

  let mock: MockOpenAiServer | undefined;
  if (!options.llm) mock = await startMockOpenAiServer({ script: llmScriptOf(lines) });
  const model = lines.find((l) => l.kind === 'llm_chunk' && typeof (l.chunk as { model?: unknown }).model === 'string');
  const llm =
    options.llm ??
    openAiGatewayFor({
      baseURL: mock!.url,
      ...(model ? { model: String((model as { chunk: { model: string } }).chunk.model) } : {}),
    });
  // A session recorded with the person guard on (startMimo turns it on) told the task's
  // scope or held steps: it is replayed with the guard too, or those events never come.
  const guarded = expectedEnvelopes.some((e) =>
    GUARD_EVENTS.has(String((e.event as { type?: unknown } | undefined)?.type)),
  );
  const orchestrator = { ...(guarded ? { confirmSteps: 'ask' as const } : {}), ...options.orchestrator };
  const runtime = await startSessionRuntime({
    llm,
    ...(options.timings ? { timings: options.timings } : {}),
    orchestrator,
  });
  let plugin: FakePlugin | undefined;
  const web = io(`${runtime.url}/mimo`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { clientType: 'frontend' },
  });
  const connected = new Promise<void>((resolve, reject) => {
    web.once('connect', () => resolve());
    web.once('connect_error', reject);
  });
  try {
    if (clientId) plugin = await startFakePlugin({ url: runtime.url, clientId, answer: answerer.answer });
    await connected;

    const envelopes: Array<Record<string, unknown>> = [];
    const inputAcks: unknown[] = [];
    let next = 0;
    let sending: Promise<void> = Promise.resolve();
    const waiting = createWokenWait();
    const flush = () => {
      sending = sending.then(async () => {
        while (next < inputs.length && inputs[next]!.afterEvents <= envelopes.length) {
          const input = inputs[next++]!;
          const ack =
            input.channel === 'frontend_message'
              ? await web
                  .timeout(5_000)
                  .emitWithAck('frontend_message', input.payload)
                  .catch((error: Error) => ({ error: error.message }))
              : await (plugin
                  ? plugin.send(input.payload).catch((error: Error) => ({ error: error.message }))
                  : { error: 'no plugin in this recording' });
          inputAcks.push(ack);
        }
      });
    };
    web.on('frontend_event', (envelope: Record<string, unknown>) => {
      // Inspection records reach a subscribed socket directly and are never recorded as frames.
      const type = (envelope?.event as { type?: unknown } | undefined)?.type;
      if (envelope?.taskId !== taskId || type === 'inspection' || (legacy && type === 'userMessage')) return;
      envelopes.push(envelope);
      flush();
      waiting.wake();
    });
    flush();

    const timeoutMs = options.timeoutMs ?? 15_000;
    const timedOut = await waiting.until(
      () => envelopes.length >= expectedEnvelopes.length && next >= inputs.length,
      timeoutMs,
    );
    await sending;
    await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 150));

    const detail = (await (await fetch(`${runtime.url}/api/task/${taskId}`)).json()) as {
      data?: {
        task?: { status?: string };
        messages?: Array<{ role: string; content: string; meta?: Record<string, unknown> }>;
      };
    };
    return {
      taskId,
      // Compared in the task's order (by seq), as the web renders them.
      // Text is compared where it was shown among the steps (by run) once the recording has seqs.
      expected: {
        events: describeFrontendEvents(inTaskOrder(expectedEnvelopes), { taskId, segments: !legacy }),
        task: expectedTaskOutcome(lines),
      },
      actual: {
        events: describeFrontendEvents(inTaskOrder(envelopes), { taskId, segments: !legacy }),
        task: { status: detail.data?.task?.status, messages: describeTaskMessages(detail.data?.messages ?? []) },
      },
      envelopes: [...envelopes],
      inputAcks,
      unexpectedActions: [...answerer.unexpected],
      unusedActions: answerer.unused().map((e) => `${e.actionName} ${e.actionId}`),
      llmRequests: [...(mock?.requests ?? [])],
      pluginFrames: [...(plugin?.received ?? [])],
      timedOut,
    };
  } finally {
    web.close();
    plugin?.close();
    await runtime.close();
    await mock?.close();
  }
}
