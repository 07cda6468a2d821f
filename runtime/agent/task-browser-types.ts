// The shapes around a task's browser (task-browser.ts): what it needs, what an action comes back
// as, and the step record kept in the task's history.
import type { InspectionEvent } from 'xstate';
import type { ActionInput, ActionOutput, ErrorValue, PagePrepInput, PagePrepOutput } from '../../machines/index.ts';
import type { ArtifactService } from '../artifacts/index.ts';
import type { Clock } from '../clock/index.ts';
import type { ExtensionRegistry } from '../registry/registry-types.ts';
import type { ActionRequest } from '../scheduler/action-scheduler.ts';
import type { ActionRegistry } from '../scheduler/action-registry.ts';
import type { SnapshotStore } from '../snapshot/snapshot-types.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { SecretRegistry } from '../redaction/redact.ts';

export interface ActionOutcome {
  ok: boolean;
  actionId: string;
  result?: Record<string, unknown>;
  error?: ErrorValue;
  warnings?: string[];
}

export interface Step {
  toolCallId: string;
  signal?: AbortSignal;
}

export type UrlCheck = (url: string) => Promise<{ ok: true } | { ok: false; error: ErrorValue }>;

export interface TaskBrowserDeps {
  taskId: string;
  groupTitle: () => string;
  /** Runs one browser action to its end, as a child of the task's actor. */
  runAction(input: ActionInput, onStarted: () => void): Promise<ActionOutput & { durationMs: number }>;
  /** The one action registry (the `toolUsed` start of each action in flight goes on its entry). */
  actionRegistry: ActionRegistry;
  /** The settle event of `actionId` went out (or never will): the next action's start may be told. */
  reported?(actionId: string): void;
  /** The machine input for a request (the scheduler's defaults). */
  inputOf(request: ActionRequest): ActionInput;
  /** Runs a page preparation through the task actor (with `pagePrepLogic`); default: `pagePrepLogic` itself. */
  preparePage?(input: PagePrepInput & { prepId: string }): Promise<PagePrepOutput>;
  registry: ExtensionRegistry;
  artifacts: ArtifactService;
  snapshots: SnapshotStore;
  events: FrontendEventSink;
  inspect?: (event: InspectionEvent) => void;
  /** Times the page-preparation retry waits (the runtime's clock). */
  clock?: Clock;
  checkUrl: UrlCheck;
  /**
   * Re-checks the URL the tab ended up on after loading (redirects), and the tab's current URL
   * before and after every page read (runtime/url-policy/read-guard.ts): blocked -> URL_BLOCKED,
   * the read's result is dropped and the tab is sent to about:blank.
   */
  checkFinalUrl?: UrlCheck;
  /** Text typed into a password field (known from the DOM indexes this task saw) is registered here and never shown. */
  secrets?: SecretRegistry;
  /** The error of an action whose step was aborted before it was sent (default TASK_STOPPED; MCP runs: RUN_CANCELED). */
  stoppedError?(): ErrorValue;
  /** Page-prep retry waits (tests shorten them). */
  pagePrepBackoffMs?: readonly number[];
  /** A page read completed (the orchestrator's "page may be stale after takeover" flag clears). */
  onPageRead?(): void;
  /** Puts the task's secrets in place of `{{secret:name}}` in typed text, at sending time only (secret-placeholders.ts). */
  fillSecrets?(text: string): { ok: true; text: string } | { ok: false; error: ErrorValue };
  /** Each finished browser action, for the task's history (persisted as a `tool` message). */
  onStepDone?(step: StepRecord): void;
}

export interface StepRecord {
  toolCallId: string;
  actionId: string;
  actionName: string;
  paramsSummary: string;
  /** What the step acted on, in words (element label, page title). */
  target?: string;
  ok: boolean;
  durationMs: number;
  /** Small fields only (ids, urls, flags): page text and element lists stay out of the history. */
  result?: Record<string, unknown>;
  error?: ErrorValue;
  /** The seq of the step's start event (its settle's when it never started): the stored step sorts where the live one was shown. */
  seq?: number;
  /** The seq of the step's settle event. */
  settleSeq?: number;
}
