// Nothing a page does in a task tab reaches the person's screen. On every task tab the
// guard attaches CDP (which also turns on focus emulation) and:
// - answers JavaScript dialogs by the dialog policy (`Page.javascriptDialogOpening` ->
//   `Page.handleJavaScriptDialog`), so a dialog never blocks a turn nor shows in a tab;
// - intercepts file choosers (`Page.setInterceptFileChooserDialog`: no OS dialog) and reports them;
// - reports downloads the page starts (`Page.downloadWillBegin`);
// - installs the page half (page-guard-script.ts) before the page's scripts run, and handles what
//   it reports over a CDP binding: new tabs opened in the background (popup-guard.ts), focus /
//   print / fullscreen ignored, permission prompts denied.
// Every interruption is reported (interruption-reports.ts).
import type { BrowserApi } from '../shared/browser-api.ts';
import { messageOf } from './action-failure.ts';
import type { CdpSessions } from './cdp-sessions.ts';
import type { DownloadGuard } from './download-guard.ts';
import { answerDialog, describeDialog, isDialogType } from './dialog-policy.ts';
import type { InterruptionReports } from './interruption-reports.ts';
import { pageGuardSource, type PageGuardMessage } from './page-guard-script.ts';
import { resubmitInBackground, type PopupGuard } from './popup-guard.ts';
import type { TaskTabs } from './task-tabs.ts';

export const BINDING_PREFIX = 'mimoGuard_';
/**
 * A beforeunload prompt this soon after an agent action ended still counts as the agent's
 * navigation: task_start with reuseExistingTab returns once the navigation is asked for, and the
 * prompt comes after.
 */
export const AGENT_NAVIGATION_GRACE_MS = 5_000;

export interface InterruptionGuard {
  /** Guards a tab of the task (idempotent; a second call after a detach guards it again). */
  guard(taskId: string, tabId: number): Promise<void>;
  isGuarded(tabId: number): boolean;
  /** Whether any tab is guarded now. */
  anyGuarded(): boolean;
  /** An agent action on the task starts / ends (a beforeunload prompt is accepted meanwhile and shortly after). */
  actionStarted(taskId: string): void;
  actionEnded(taskId: string): void;
}

export interface InterruptionGuardDeps {
  browser: BrowserApi;
  cdp: CdpSessions;
  taskTabs: TaskTabs;
  reports: InterruptionReports;
  popups: PopupGuard;
  downloads: DownloadGuard;
  /** Random suffix of the binding name, fresh per service-worker life. */
  newId(): string;
  now(): number;
  log?(message: string): void;
}

const ignoredKinds = {
  focus: 'the page called window.focus(); Mimo ignored it, the task tab stays in the background',
  print: 'the page asked to print; Mimo ignored it (no print dialog)',
  fullscreen: 'the page asked for fullscreen; Mimo refused it',
} as const;

export function createInterruptionGuard(deps: InterruptionGuardDeps): InterruptionGuard {
  // Made on first use (ids are not drawn before the worker needs one).
  let binding: { name: string; source: string } | undefined;
  const page = () => {
    if (!binding) {
      const name = `${BINDING_PREFIX}${deps.newId().replace(/[^A-Za-z0-9_]/g, '_')}`;
      binding = { name, source: pageGuardSource(name) };
    }
    return binding;
  };
  const guarded = new Set<number>();
  const guarding = new Map<number, Promise<void>>();
  const acting = new Map<string, number>();
  const lastActionEnded = new Map<string, number>();
  const agentActing = (taskId: string) =>
    (acting.get(taskId) ?? 0) > 0 ||
    deps.now() - (lastActionEnded.get(taskId) ?? -Infinity) <= AGENT_NAVIGATION_GRACE_MS;

  const taskOf = async (tabId: number) => (await deps.taskTabs.taskOfTab(tabId))?.taskId;

  async function onDialog(tabId: number, params: Record<string, unknown>): Promise<void> {
    const taskId = await taskOf(tabId);
    const type = params.type;
    if (!taskId || !isDialogType(type)) return;
    const dialog = {
      type,
      message: String(params.message ?? ''),
      url: String(params.url ?? ''),
      defaultPrompt: String(params.defaultPrompt ?? ''),
    };
    const answer = answerDialog(dialog, { agentActing: agentActing(taskId) });
    let message = describeDialog(dialog, answer);
    try {
      await deps.cdp.send(
        tabId,
        'Page.handleJavaScriptDialog',
        answer.promptText === undefined
          ? { accept: answer.accept }
          : { accept: answer.accept, promptText: answer.promptText },
      );
    } catch (error) {
      // Chrome may have closed it first (it dismisses dialogs of background tabs on its own).
      message += ` [answer not delivered: ${messageOf(error)}]`;
    }
    const report: Parameters<InterruptionReports['report']>[1] = {
      tabId,
      kind: 'dialog',
      message,
      dialog: { dialogType: type, text: dialog.message.slice(0, 2_000), accepted: answer.accept },
    };
    if (answer.promptText !== undefined) report.dialog!.promptText = answer.promptText;
    deps.reports.report(taskId, report);
  }

  async function onPageMessage(tabId: number, payload: string): Promise<void> {
    const taskId = await taskOf(tabId);
    if (!taskId) return;
    let message: PageGuardMessage;
    try {
      message = JSON.parse(payload) as PageGuardMessage;
    } catch {
      return;
    }
    switch (message.kind) {
      case 'open': {
        const work = deps.popups.open(taskId, tabId, message);
        deps.reports.track(taskId, work);
        await work;
        return;
      }
      case 'navigate':
        return deps.popups.navigate(taskId, message.openId, message.url);
      case 'close':
        return deps.popups.close(taskId, message.openId);
      case 'resubmit': {
        const work = resubmit(taskId, tabId, message);
        deps.reports.track(taskId, work);
        return work;
      }
      case 'open_blocked':
        return deps.reports.report(taskId, {
          tabId,
          kind: 'popup_blocked',
          url: String(message.url).slice(0, 4_096),
          message: `the page tried to open ${String(message.url).slice(0, 300)} without a click (${message.reason}); blocked, as Chrome's pop-up blocker would`,
        });
      case 'external_app':
        return deps.reports.report(taskId, {
          tabId,
          kind: 'external_app',
          url: String(message.url).slice(0, 4_096),
          message: `the page tried to open ${JSON.stringify(String(message.url).slice(0, 200))} in another application; Mimo ignored it (no "Open application?" prompt)`,
        });
      case 'permission':
        return deps.reports.report(taskId, {
          tabId,
          kind: 'permission',
          permission: String(message.permission).slice(0, 100),
          message: `the page asked for ${message.permission} permission; Mimo denied it (no prompt is shown for task tabs)`,
        });
      case 'beforeunload':
        return deps.reports.report(taskId, {
          tabId,
          kind: 'dialog',
          dialog: { dialogType: 'beforeunload', text: '', accepted: true },
          message:
            'the page asked to confirm leaving it (beforeunload); Mimo let the navigation go on without a dialog (Chrome would bring a background tab to the front to ask)',
        });
      case 'focus':
      case 'print':
      case 'fullscreen':
        return deps.reports.report(taskId, { tabId, kind: message.kind, message: ignoredKinds[message.kind] });
    }
  }

  /** Every frame of the tab's own process, main frame first. */
  const framesOf = (tree: { frame: { id: string }; childFrames?: unknown[] }): string[] => [
    tree.frame.id,
    ...((tree.childFrames ?? []) as Array<typeof tree>).flatMap(framesOf),
  ];

  async function resubmit(taskId: string, tabId: number, request: { formId: string; url: string }): Promise<void> {
    const expression = `(${resubmitInBackground.toString()})(${JSON.stringify(request.formId)})`;
    let done = false;
    let why = 'the form is gone';
    try {
      const { frameTree } = await deps.cdp.send<{ frameTree: { frame: { id: string }; childFrames?: unknown[] } }>(
        tabId,
        'Page.getFrameTree',
      );
      for (const frameId of framesOf(frameTree)) {
        // Frames of another process (cross-site iframes) refuse: skip them.
        const world = await deps.cdp
          .send<{ executionContextId: number }>(tabId, 'Page.createIsolatedWorld', {
            frameId,
            worldName: 'mimo-resubmit',
          })
          .catch(() => undefined);
        if (!world) continue;
        const run = await deps.cdp.send<{ result?: { value?: unknown } }>(tabId, 'Runtime.evaluate', {
          expression,
          contextId: world.executionContextId,
          returnByValue: true,
        });
        if (run.result?.value === true) {
          done = true;
          break;
        }
      }
    } catch (error) {
      why = messageOf(error);
    }
    const url = request.url.slice(0, 300);
    deps.reports.report(taskId, {
      tabId,
      kind: done ? 'popup' : 'popup_blocked',
      url: request.url.slice(0, 4_096),
      message: done
        ? `the page submitted a form to ${url} into a new tab; Mimo submitted it in a background tab (one of the task's tabs)`
        : `the page submitted a form to ${url} into a new tab; Mimo could not submit it in the background (${why})`,
    });
  }

  async function onFileChooser(tabId: number, params: Record<string, unknown>): Promise<void> {
    const taskId = await taskOf(tabId);
    if (!taskId) return;
    const mode = params.mode === 'selectMultiple' ? 'several files' : 'a file';
    deps.reports.report(taskId, {
      tabId,
      kind: 'file_chooser',
      message: `the page opened a file chooser for ${mode}; Mimo intercepted it (no dialog shown, no file chosen)`,
    });
  }

  async function onDownload(tabId: number, params: Record<string, unknown>): Promise<void> {
    const taskId = await taskOf(tabId);
    if (!taskId) return;
    const url = String(params.url ?? '');
    const name = String(params.suggestedFilename ?? '') || url.slice(0, 200);
    const filed = deps.downloads.expect(taskId, url).then((path) => {
      const where =
        path === undefined
          ? 'Mimo could not file it into the task folder (it went where Chrome puts downloads)'
          : `saved as Downloads/${path}`;
      deps.reports.report(taskId, {
        tabId,
        kind: 'download',
        url: url.slice(0, 4_096),
        message: `the page downloaded ${JSON.stringify(name)}; ${where}`,
      });
    });
    deps.reports.track(taskId, filed);
    await filed;
  }

  deps.browser.debugger?.onEvent.addListener((source, method, params) => {
    const tabId = source.tabId;
    if (tabId === undefined || !guarded.has(tabId)) return;
    const p = (params ?? {}) as Record<string, unknown>;
    const run = (work: Promise<void>) =>
      void work.catch((error) => deps.log?.(`interruption guard (${method}) failed: ${messageOf(error)}`));
    if (method === 'Page.javascriptDialogOpening') run(onDialog(tabId, p));
    else if (method === 'Runtime.bindingCalled' && typeof p.name === 'string' && p.name.startsWith(BINDING_PREFIX))
      run(onPageMessage(tabId, String(p.payload ?? '')));
    else if (method === 'Page.fileChooserOpened') run(onFileChooser(tabId, p));
    else if (method === 'Page.downloadWillBegin') run(onDownload(tabId, p));
  });
  deps.browser.debugger?.onDetach.addListener((source) => {
    if (source.tabId !== undefined) guarded.delete(source.tabId);
  });
  deps.browser.tabs.onRemoved.addListener((tabId) => guarded.delete(tabId));

  async function install(tabId: number): Promise<void> {
    await deps.cdp.attach(tabId);
    guarded.add(tabId);
    const { name: bindingName, source } = page();
    try {
      // Runtime must be enabled for V8 to install the binding in each new document (measured: with
      // Runtime off it exists only in the documents present when it was added).
      await Promise.all([
        deps.cdp.send(tabId, 'Page.enable'),
        deps.cdp.send(tabId, 'Runtime.enable'),
        deps.cdp.send(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true }),
        deps.cdp.send(tabId, 'Runtime.addBinding', { name: bindingName }),
      ]);
      await deps.cdp.send(tabId, 'Page.addScriptToEvaluateOnNewDocument', { source, runImmediately: true });
      // The document already loaded (the task tab was created with its URL) gets it now.
      await deps.cdp.send(tabId, 'Runtime.evaluate', { expression: source });
    } catch (error) {
      guarded.delete(tabId);
      throw error;
    }
  }

  return {
    async guard(_taskId, tabId) {
      if (guarded.has(tabId) && deps.cdp.isAttached(tabId)) return;
      let pending = guarding.get(tabId);
      if (!pending) {
        pending = install(tabId).finally(() => guarding.delete(tabId));
        guarding.set(tabId, pending);
      }
      return pending;
    },
    isGuarded: (tabId) => guarded.has(tabId) && deps.cdp.isAttached(tabId),
    anyGuarded: () => guarded.size > 0,
    actionStarted(taskId) {
      acting.set(taskId, (acting.get(taskId) ?? 0) + 1);
    },
    actionEnded(taskId) {
      lastActionEnded.set(taskId, deps.now());
      const left = (acting.get(taskId) ?? 1) - 1;
      if (left <= 0) acting.delete(taskId);
      else acting.set(taskId, left);
    },
  };
}
