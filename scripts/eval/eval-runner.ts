// Runs eval tasks through the real server and the real extension in headless Chromium (spawned
// plainly, no Playwright page emulation): each task is a fresh Mimo task; its messages are sent
// as a user would; its predicate reads the task tab's DOM through CDP; then the task is stopped
// (its tab closes). The LLM is the offline planner, or any OpenAI-compatible endpoint when
// OPENAI_API_KEY / OPENAI_BASE_URL are set.
import type { Page } from 'playwright-core';
import { llmFromEnv } from '../../runtime/llm-from-env.ts';
import { startDemoEnv, type DemoEnv } from '../demo-env.ts';
import { serveCorpus, type CorpusServer } from './corpus-server.ts';
import { meteredLlm } from './metered-llm.ts';
import type { EvalTask } from './tasks.ts';

export interface TaskResult {
  id: string;
  site: string;
  success: boolean;
  detail: string;
  /** LLM steps (streamChat calls) over all the task's messages. */
  steps: number;
  browserActions: number;
  promptTokens: number;
  completionTokens: number;
  /** Page-context tokens per LLM step (page or paging result + browser state). */
  contextTokens: number[];
  seconds: number;
  answer: string;
  error: string | null;
}

export interface EvalEnv {
  env: DemoEnv;
  corpus: CorpusServer;
  llm: ReturnType<typeof meteredLlm>;
  close(): Promise<void>;
}

export async function startEvalEnv(
  options: { env?: Record<string, string | undefined>; contextTokens?: number } = {},
): Promise<EvalEnv> {
  const llm = meteredLlm(llmFromEnv(options.env ?? process.env));
  const corpus = await serveCorpus();
  try {
    const env = await startDemoEnv({
      llm,
      ...(options.contextTokens ? { env: { MIMO_CONTEXT_TOKENS: String(options.contextTokens) } } : {}),
    });
    return {
      env,
      corpus,
      llm,
      async close() {
        await env.close();
        await corpus.close();
      },
    };
  } catch (error) {
    await corpus.close();
    throw error;
  }
}

/** The Playwright page of a task's tab: by the tab's URL in the server's snapshot. */
async function taskPage(ev: EvalEnv, taskId: string): Promise<Page | undefined> {
  const control = ev.env.app.server.control as
    { sessionOf?(id: string): { browser: { tabId: number | null } } | undefined } | undefined;
  const tabId = control?.sessionOf?.(taskId)?.browser.tabId ?? null;
  if (tabId === null) return undefined;
  const url = ev.env.app.server.snapshots.current().tabs.find((t) => t.tabId === tabId)?.url;
  if (!url) return undefined;
  const pages = ev.env.browser.context.pages().filter((p) => p.url() === url);
  return pages.at(-1);
}

async function stopTask(ev: EvalEnv, taskId: string): Promise<void> {
  await ev.env.app.server.control?.stop(taskId, 'web', 'eval task finished').catch(() => undefined);
}

export async function runEvalTask(
  ev: EvalEnv,
  task: EvalTask,
  options: { timeoutMs?: number } = {},
): Promise<TaskResult> {
  const started = performance.now();
  const messages = task.messages(ev.corpus.url);
  let taskId: string | undefined;
  let answer = '';
  let error: string | null = null;
  let browserActions = 0;
  for (const message of messages) {
    const run = await ev.env.runTask(message, {
      ...(taskId ? { taskId } : {}),
      timeoutMs: options.timeoutMs ?? 120_000,
    });
    taskId = run.taskId;
    answer = run.text;
    browserActions += run.steps.length;
    if (run.error) {
      error = run.error;
      break;
    }
  }
  let success = false;
  let detail = '';
  const page = taskId ? await taskPage(ev, taskId) : undefined;
  if (!page) detail = 'the task has no tab to check';
  else {
    try {
      const verdict = await task.check(page, answer);
      success = verdict.ok;
      detail = verdict.detail;
    } catch (e) {
      detail = `the predicate could not read the page: ${(e as Error).message}`;
    }
  }
  const meter = taskId ? ev.llm.meterOf(taskId) : { steps: 0, promptTokens: 0, completionTokens: 0, contextTokens: [] };
  if (taskId) await stopTask(ev, taskId);
  return {
    id: task.id,
    site: task.site,
    success,
    detail,
    steps: meter.steps,
    browserActions,
    promptTokens: meter.promptTokens,
    completionTokens: meter.completionTokens,
    contextTokens: [...meter.contextTokens],
    seconds: (performance.now() - started) / 1000,
    answer,
    error,
  };
}
