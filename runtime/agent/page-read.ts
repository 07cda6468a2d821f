// The agent's page read of the task's tab: wait for the load (and the landing URL check, in
// task-tab.ts), a page preparation (screenshot + readability, run by the task actor with
// pagePrepMachine's policy, page-prep-run.ts), the readable text (inline or read back from its artifact) and the
// DOM index, put together as the FullPage the LLM's context is cut from.
import { nanoid } from 'nanoid';
import {
  errorValue,
  runPagePrep,
  type CaptureInput,
  type ErrorValue,
  type PagePrepInput,
  type PagePrepOutput,
  type ReadabilityCapture,
  type ScreenshotCapture,
} from '../../machines/index.ts';
import { createSystemClock, delayOn } from '../clock/index.ts';
import { fullPageOf, type FullPage, type IndexedElement } from './page-context.ts';
import { markdownForAgent, readableTextOf } from './readable-text.ts';
import { readTaskArtifactText } from './task-artifact-text.ts';
import type { TaskActions } from './task-actions.ts';
import type { Step, TaskBrowserDeps } from './task-browser-types.ts';
import { loadedNoPage, type Settled, type TaskTab } from './task-tab.ts';
import { loadFailureOf } from './turn-outcome.ts';

export type PageRead = { ok: true; page: FullPage } | { ok: false; error: ErrorValue };

export function createPageReader(deps: TaskBrowserDeps, actions: TaskActions, tab: TaskTab) {
  let fullPage: FullPage | null = null;
  /** Page preparations running now: what their captures need (the step, the capture actionIds). */
  const preps = new Map<
    string,
    {
      step: Step;
      captureIds: { screenshot: string; readability: string };
      lastError: { screenshot?: ErrorValue | undefined; readability?: ErrorValue | undefined };
      uploadUrl: string;
    }
  >();

  /**
   * A capture of a running page preparation: one browser action. Its retry keeps the actionId
   * only when the first try got no result (exec timeout); after an error result it is a new
   * action, since the plugin answers a repeated id from its dedupe cache (seed 001 §4.2).
   */
  async function capture(kind: 'screenshot' | 'readability', input: CaptureInput): Promise<unknown> {
    const prep = input.prepId ? preps.get(input.prepId) : undefined;
    if (!prep) throw errorValue('INTERNAL', `no page preparation ${input.prepId ?? '(none)'} is running`);
    const name = kind === 'screenshot' ? 'browser_screenshot' : 'browser_readability_extract';
    const previous = prep.lastError[kind];
    if (previous && previous.code !== 'PLUGIN_TIMEOUT_EXEC') prep.captureIds[kind] = `act-${nanoid(12)}`;
    const out = await actions.action(
      prep.step,
      name,
      { tabId: input.tabId },
      {
        retry: false,
        actionId: prep.captureIds[kind],
        ...(kind === 'screenshot' ? { screenshotPresignedUrl: prep.uploadUrl } : {}),
      },
    );
    if (!out.ok) {
      prep.lastError[kind] = out.error;
      throw out.error;
    }
    return out.result;
  }

  /** A wait between a capture's tries, on the runtime's clock. */
  const clock = deps.clock ?? createSystemClock();
  /** One preparation with this browser's captures: what the task actor runs (its `preparePage`). */
  const pagePrepLogic = (input: PagePrepInput): Promise<PagePrepOutput> =>
    runPagePrep(input, {
      captureScreenshot: async (i) => (await capture('screenshot', i)) as ScreenshotCapture,
      extractReadability: async (i) => (await capture('readability', i)) as ReadabilityCapture,
      wait: (ms) => delayOn(clock, ms),
    });

  /** The last inline readable text made, by what it was made of: a read of an unchanged page reuses it. */
  let lastInline: { markdown: string | undefined; text: string | undefined; readable: string } | null = null;
  function readableInline(readability: ReadabilityCapture | undefined): string {
    const markdown = readability?.markdown;
    const text = readability?.text;
    if (lastInline && lastInline.markdown === markdown && lastInline.text === text) return lastInline.readable;
    const readable = readableTextOf(readability);
    lastInline = { markdown, text, readable };
    return readable;
  }

  /** The readable text: inline, or read back from the readability artifact (pages of 256 KB or more). */
  async function readableText(
    readability: ReadabilityCapture | undefined,
  ): Promise<{ text: string; fromArtifact: boolean; warning?: string }> {
    const inline = readableInline(readability);
    if (inline || !readability?.artifactId) return { text: inline, fromArtifact: false };
    const stored = await readTaskArtifactText(deps.artifacts, deps.taskId, readability.artifactId);
    if (!stored.ok)
      return { text: '', fromArtifact: false, warning: `the page text could not be read: ${stored.reason}` };
    return { text: markdownForAgent(stored.text), fromArtifact: true };
  }

  /** Reads the task's tab; `settled` is the load an open just waited for (else it is waited for now). */
  async function readPage(step: Step, settled?: Settled): Promise<PageRead> {
    const tabId = tab.tabId;
    if (tabId === null)
      return {
        ok: false,
        error: errorValue('TASK_TAB_CLOSED', 'the task has no tab yet: open a URL first', { retryable: false }),
      };
    // The screenshot's upload is presigned while the load is waited for, not after it: its store
    // write is off the path from the load's result to the captures. A read that ends before the
    // captures leaves it unused (it expires and the sweeper removes it).
    const upload = deps.artifacts.presign({ taskId: deps.taskId, kind: 'screenshot', contentType: 'image/png' });
    upload.catch(() => undefined);
    const { loaded, landed: landedOn, refused } = settled ?? (await tab.settle(step));
    const loadAckMissed = actions.blockedError();
    if (loadAckMissed) return { ok: false, error: loadAckMissed };
    // A successful load's warnings (HTTP 4xx/5xx: an error page, not the content) reach the agent too.
    const loadWarning = loaded.ok
      ? (loaded.warnings ?? [])
      : [`the page did not finish loading: ${loaded.error?.message ?? 'unknown'}`];
    // No page at all (refused, DNS, TLS): a failed read, not an error page read as content.
    if (loadedNoPage(loaded)) return { ok: false, error: loaded.error! };
    if (refused) return { ok: false, error: refused };
    // Presigned before the preparation starts (above), so both captures are requested in order at once.
    const prepId = `prep-${nanoid(12)}`;
    const { uploadUrl } = await upload;
    preps.set(prepId, {
      step,
      captureIds: { screenshot: `act-${nanoid(12)}`, readability: `act-${nanoid(12)}` },
      lastError: {},
      uploadUrl,
    });
    const prepInput = {
      taskId: deps.taskId,
      tabId,
      prepId,
      ...(deps.pagePrepBackoffMs ? { backoffMs: deps.pagePrepBackoffMs } : {}),
    };
    let prepared: PagePrepOutput;
    try {
      prepared = deps.preparePage ? await deps.preparePage(prepInput) : await pagePrepLogic(prepInput);
    } finally {
      preps.delete(prepId);
    }
    // A plugin that missed an ack is not a page that failed: the turn stops, the task stays usable.
    const ackMissed = actions.blockedError();
    if (ackMissed) return { ok: false, error: ackMissed };
    if (prepared.status === 'failed') {
      return {
        ok: false,
        error:
          prepared.error ??
          errorValue('PAGE_PREP_FAILED', 'screenshot and readability both failed', { retryable: true }),
      };
    }
    const readable = await readableText(prepared.readability);
    const indexed = await actions.action(step, 'browser_dom_index', { tabId, scope: 'document' });
    const elements =
      indexed.ok && Array.isArray(indexed.result?.elements) ? (indexed.result.elements as IndexedElement[]) : [];
    const indexWarnings = Array.isArray(indexed.result?.warnings) ? (indexed.result.warnings as string[]) : [];
    const page = fullPageOf(
      {
        tabId,
        url: tab.reportedUrlOf(tabId) ?? landedOn ?? fullPage?.url ?? '',
        title: prepared.readability?.title ?? tab.titleOf(tabId),
        text: readable.text,
        textFromArtifact: readable.fromArtifact,
        elements,
        viewport: prepared.screenshot
          ? { width: prepared.screenshot.width, height: prepared.screenshot.height }
          : undefined,
        warnings: [
          ...loadWarning,
          ...prepared.warnings,
          ...(readable.warning ? [readable.warning] : []),
          ...(indexed.ok ? indexWarnings : [`dom index failed: ${indexed.error?.message}`]),
        ],
        missing: prepared.missing,
      },
      fullPage,
    );
    // The tab shows the browser's own error page (the extension's NAVIGATION_FAILED from the page agent): no page loaded.
    const errorPage = !indexed.ok && indexed.error?.code === 'NAVIGATION_FAILED' ? indexed.error : undefined;
    const loadFailure = loadFailureOf(loaded, page.url) ?? errorPage;
    if (loadFailure) page.loadFailure = loadFailure;
    fullPage = page;
    deps.onPageRead?.();
    return { ok: true, page };
  }

  return {
    /** The last page read, whole (the LLM sees a budgeted cut of it). */
    get fullPage() {
      return fullPage;
    },
    pagePrepLogic,
    readPage,
  };
}
