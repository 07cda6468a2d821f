// The demo's world, reusable by `npm run demo` and the offline-planner end-to-end test: the
// server (startMimo, offline planner, a URL policy that lifts loopback for fixtures/site),
// fixtures/site, Debian Chromium with the extension (spawned plainly, no Playwright page
// emulation), and a web-protocol client that runs tasks and collects what the UI would show.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { serveFixtureSite, type FixtureSite } from '../fixtures/site/serve.ts';
import { startMimo, type MimoApp } from '../runtime/app.ts';
import { buildWebAndExtensionIfStale } from './build-if-stale.ts';

export interface TaskRun {
  taskId: string;
  status: string;
  text: string;
  steps: Array<{
    actionName: string;
    paramsSummary: string;
    phase: string;
    durationMs?: number;
    error?: { code: string; message: string };
  }>;
  screenshots: string[];
  error: string | null;
}

export interface DemoEnv {
  app: MimoApp;
  site: FixtureSite;
  baseUrl: string;
  token: string;
  browser: Awaited<ReturnType<typeof import('../extension/test/harness/chromium.ts').launchRealistic>>;
  /** Sends a user message on a task (new one unless given) and resolves when its turn ended. */
  runTask(
    request: string,
    options?: { taskId?: string; onText?: (chunk: string) => void; timeoutMs?: number },
  ): Promise<TaskRun>;
  close(): Promise<void>;
}

export async function startDemoEnv(
  options: {
    log?: (entry: object) => void;
    /** Another LLM gateway than the one the env selects (the eval wraps it to meter tokens). */
    llm?: import('../runtime/llm/llm-types.ts').LlmGateway;
    /** Extra environment for the server (e.g. MIMO_CONTEXT_TOKENS). */
    env?: Record<string, string>;
  } = {},
): Promise<DemoEnv> {
  const { launchRealistic } = await import('../extension/test/harness/chromium.ts');
  const { configureThroughOptionsPage } = await import('../extension/test/e2e/e2e-util.ts');
  const work = await mkdtemp(join(tmpdir(), 'mimo-demo-'));
  const cleanups: Array<() => Promise<unknown>> = [() => rm(work, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const { extensionDir } = await buildWebAndExtensionIfStale();
    const site = await serveFixtureSite();
    cleanups.push(() => site.close());
    const policyFile = join(work, 'url-policy.json');
    await writeFile(policyFile, JSON.stringify({ open: { allow_private_networks: ['loopback'] } }));
    const token = `demo-${randomBytes(16).toString('base64url')}`;
    const app = await startMimo(
      {
        ...process.env,
        MIMO_PORT: '0',
        MIMO_DATA_DIR: join(work, 'data'),
        MIMO_ARTIFACT_DIR: join(work, 'artifacts'),
        MIMO_URL_POLICY: policyFile,
        MIMO_TOKEN: token,
        MIMO_RECORD_DIR: '',
        ...options.env,
      },
      { log: options.log ?? (() => {}), ...(options.llm ? { llm: options.llm } : {}) },
    );
    cleanups.push(() => app.close());
    const baseUrl = app.server.url;
    const browser = await launchRealistic(extensionDir);
    cleanups.push(() => browser.close());
    const worker =
      browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await browser.context.waitForEvent('serviceworker', { timeout: 20_000 }));
    await configureThroughOptionsPage(browser.context, new URL(worker.url()).host, baseUrl, token);
    const deadline = Date.now() + 20_000;
    while (!app.server.registry.list().some((e) => e.socketConnected)) {
      if (Date.now() > deadline) throw new Error('the extension did not connect to the server');
      await new Promise((r) => setTimeout(r, 100));
    }
    const web: Socket = io(`${baseUrl}/mimo`, { transports: ['websocket'], auth: { clientType: 'frontend', token } });
    cleanups.push(async () => web.close());
    await new Promise<void>((resolve, reject) => {
      web.once('connect', () => resolve());
      web.once('connect_error', reject);
    });

    const runTask: DemoEnv['runTask'] = async (request, runOptions = {}) => {
      const taskId =
        runOptions.taskId ??
        (
          (await (await fetch(`${baseUrl}/api/task/id`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
            data: { taskId: string };
          }
        ).data.taskId;
      const messageId = `evt-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const run: TaskRun = { taskId, status: 'created', text: '', steps: [], screenshots: [], error: null };
      const finished = new Promise<void>((resolve) => {
        let chatDone = false;
        const timer = setTimeout(() => {
          web.off('frontend_event', onEvent);
          run.error ??= 'timed out';
          resolve();
        }, runOptions.timeoutMs ?? 90_000);
        const onEvent = (envelope: { taskId?: string; event: Record<string, any> }) => {
          if (envelope.taskId !== taskId) return;
          const e = envelope.event;
          if (e.type === 'chatDelta' && e.targetEventId === messageId) {
            run.text += e.delta.content;
            runOptions.onText?.(e.delta.content);
            if (e.finished) chatDone = true;
          } else if (e.type === 'toolUsed' && e.phase !== 'start') {
            run.steps.push({
              actionName: e.actionName,
              paramsSummary: e.paramsSummary,
              phase: e.phase,
              durationMs: e.durationMs,
              ...(e.error ? { error: e.error } : {}),
            });
            for (const artifact of e.artifacts ?? [])
              if (artifact.kind === 'screenshot') run.screenshots.push(artifact.artifactId);
          } else if (e.type === 'structuredOutput' && e.status === 'error') {
            run.error = `${e.error.code}: ${e.error.message}`;
          } else if (e.type === 'taskStatus') {
            run.status = e.status;
          } else if (e.type === 'confirmationRequested') {
            // A held step waits for the person. The demo's requests are the person's own,
            // so it says yes once, out loud.
            runOptions.onText?.(
              `\n[Needs you: confirm ${e.step.toolName} ${e.step.element ?? e.step.url ?? ''} on ${e.step.site} (${e.step.reason}): allowed once by the demo]\n`,
            );
            void web.emitWithAck('frontend_message', {
              v: 1,
              type: 'confirmation_answer',
              id: `ans-${e.requestId}`,
              timestamp: Date.now(),
              taskId,
              requestId: e.requestId,
              decision: 'allow_once',
            });
          }
          if (chatDone && ['ongoing', 'error', 'completed'].includes(run.status)) {
            clearTimeout(timer);
            web.off('frontend_event', onEvent);
            resolve();
          }
        };
        web.on('frontend_event', onEvent);
      });
      const ack = await web.timeout(10_000).emitWithAck('frontend_message', {
        v: 1,
        type: 'user_message',
        id: messageId,
        timestamp: Date.now(),
        taskId,
        content: request,
      });
      if (!ack.ok) run.error = `${ack.error.code}: ${ack.error.message}`;
      else await finished;
      return run;
    };
    return { app, site, baseUrl, token, browser, runTask, close };
  } catch (error) {
    await close();
    throw error;
  }
}
