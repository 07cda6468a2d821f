// The RunManager of seed 003 §8.2: every template run is a runMachine actor whose steps run the
// template against the browser through the session's tabs. Runs wait `queued` until one of the
// maxConcurrentRuns slots frees (FIFO); the window of tabs per run is min(template concurrency,
// template maxConcurrency, tabs the session has free); the effective timeout is min(options,
// template max, runtime max). Every change is persisted; the terminal state writes the result
// artifacts (24 h TTL from then) and closes the run's own session unless the template keeps it.
import { ulid } from 'ulid';
import { createActor, fromPromise, type Actor, type InspectionEvent } from 'xstate';
import {
  isTerminalRunStatus,
  maxRunTimeoutMs,
  runMachine,
  runProgressOf,
  runStatusOf,
  toErrorValue,
  type RunOutput,
  type RunStatus,
  type RunStepInput,
} from '../../../machines/index.ts';
import type { Clock } from '../../clock/index.ts';
import type { RuntimeServices } from '../../services/runtime-services.ts';
import type { BrowserSession, BrowserSessions } from '../browser/browser-sessions.ts';
import type { TabBudget } from '../browser/tab-budget.ts';
import type { TemplateCatalog } from '../templates/template-catalog.ts';
import {
  stepError,
  type RunMode,
  type StepContext,
  type TaskTemplate,
  type TrustLevel,
} from '../templates/template-types.ts';
import { seedError, type SeedError } from '../tools/tool-errors.ts';
import { prepareRun, type RunRequest } from './run-request.ts';
import { RUN_ID_PATTERN, type RunListFilter, type RunRecord, type RunStore } from './run-store.ts';
import { markInterrupted, runErrorOf, stepRecord } from './run-view.ts';

export const DEFAULT_MAX_CONCURRENT_RUNS = 5;
export const DEFAULT_MAX_RUN_TIMEOUT_MS = maxRunTimeoutMs;

/** xstate's actor clock: the runtime's one clock (SimulatedClock in tests). */
export type ActorClock = Pick<Clock, 'setTimeout' | 'clearTimeout'>;

export interface RunManagerDeps {
  services: RuntimeServices;
  sessions: BrowserSessions;
  budget: TabBudget;
  store: RunStore;
  catalog: TemplateCatalog;
  maxConcurrentRuns?: number;
  maxRunTimeoutMs?: number;
  actorClock?: ActorClock;
  inspectFor?: (runId: string) => ((event: InspectionEvent) => void) | undefined;
}

interface LiveRun {
  actor: Actor<typeof runMachine>;
  template: TaskTemplate;
  inputs: unknown;
  session: BrowserSession;
  scratch: Record<string, unknown>;
}

export type RunListener = (run: RunRecord) => void;

export function createRunManager(deps: RunManagerDeps) {
  const { services, sessions, store, catalog } = deps;
  const maxConcurrentRuns = deps.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS;
  const maxRunTimeoutMs = deps.maxRunTimeoutMs ?? DEFAULT_MAX_RUN_TIMEOUT_MS;
  const runs = new Map<string, RunRecord>();
  const live = new Map<string, LiveRun>();
  const queue: string[] = [];
  const listeners = new Map<string, Set<RunListener>>();
  let running = 0;
  const log = (entry: object) => services.log({ component: 'mcp-runs', ...entry });

  /** Persists the run; the promise settles once the store has it (it never rejects: failures are logged). */
  function save(run: RunRecord): Promise<void> {
    run.updatedAt = services.clock.now();
    for (const listener of listeners.get(run.runId) ?? []) listener(run);
    return store
      .put(run)
      .catch((error) => log({ event: 'run_persist_failed', runId: run.runId, error: String(error) }));
  }

  function pump(): void {
    while (running < maxConcurrentRuns && queue.length > 0) {
      const runId = queue.shift()!;
      const entry = live.get(runId);
      if (
        !entry ||
        entry.actor.getSnapshot().status !== 'active' ||
        runStatusOf(entry.actor.getSnapshot()) !== 'queued'
      )
        continue;
      running += 1;
      const run = runs.get(runId)!;
      run.startedAt = services.clock.now();
      entry.actor.send({ type: 'START' });
    }
  }

  function stepContext(runId: string, entry: LiveRun, signal: AbortSignal): StepContext<any> {
    return {
      runId,
      inputs: entry.inputs,
      session: entry.session,
      trustLevel: runs.get(runId)!.trustLevel,
      signal,
      scratch: entry.scratch,
      steps: () => entry.actor.getSnapshot().context.steps,
      mainPage() {
        const main = sessions.main(entry.session);
        if (!main.ok) throw stepError('EXECUTION_ERROR', main.error.message, { cause: { code: main.error.code } });
        return main.page;
      },
      async withWorkerTab(work) {
        const page = await sessions.openWorker(entry.session, signal);
        try {
          return await work(page);
        } finally {
          await sessions.closeWorker(entry.session, page);
        }
      },
    };
  }

  async function finish(runId: string, output: RunOutput): Promise<void> {
    const run = runs.get(runId)!;
    const entry = live.get(runId)!;
    const wasStarted = run.startedAt !== undefined;
    const now = services.clock.now();
    try {
      const built = entry.template.buildResult(entry.inputs, output.steps, { sessionId: run.sessionId });
      run.result = built.result;
      run.artifacts = [];
      for (const artifact of built.artifacts) {
        const stored = await services.artifacts.putArtifact({
          taskId: runId,
          kind: `mcp-${artifact.type}`,
          contentType: artifact.mimeType,
          bytes: artifact.bytes,
        });
        run.artifacts.push({
          artifactId: stored.artifactId,
          type: artifact.type,
          mimeType: artifact.mimeType,
          size: stored.size,
          expiresAt: stored.expiresAt,
        });
      }
    } catch (error) {
      log({ event: 'run_result_failed', runId, error: String(error) });
      run.error = seedError(
        'EXECUTION_ERROR',
        `the run's result could not be stored: ${toErrorValue(error, 'INTERNAL').message}`,
        { runId },
      );
    }
    const error = runErrorOf(output, run.timeoutMs);
    if (error) run.error = error;
    run.status = output.status;
    run.steps = output.steps.map(stepRecord);
    run.progress = {
      totalSteps: output.steps.length,
      doneSteps: output.steps.filter((s) => s.status !== 'pending' && s.status !== 'running').length,
    };
    run.endedAt = now;
    live.delete(runId);
    if (wasStarted) running -= 1;
    save(run);
    listeners.delete(runId);
    if (run.sessionCreated && !entry.template.meta.keepsSession) await sessions.close(run.sessionId).catch(() => {});
    else sessions.touch(run.sessionId);
    pump();
  }

  return {
    limits: { maxConcurrentRuns, maxRunTimeoutMs },

    /** Loads stored runs; runs a restart interrupted become canceled (their tabs are gone). */
    async init(): Promise<{ loaded: number; interrupted: number }> {
      const { runs: stored, skipped } = await store.init();
      if (skipped.length > 0) log({ event: 'run_documents_skipped', skipped });
      let interrupted = 0;
      for (const run of stored) {
        runs.set(run.runId, run);
        if (isTerminalRunStatus(run.status)) continue;
        interrupted += 1;
        markInterrupted(run, services.clock.now());
        save(run);
      }
      return { loaded: stored.length, interrupted };
    },

    async create(
      request: RunRequest & { trustLevel: TrustLevel },
      /** Told as soon as the run exists, before any of its steps starts (the session recorder). */
      onCreated?: (run: RunRecord) => void,
    ): Promise<{ ok: true; run: RunRecord } | { ok: false; error: SeedError }> {
      const prepared = prepareRun(request, { catalog, sessions, budget: deps.budget, maxRunTimeoutMs });
      if (!prepared.ok) return prepared;
      const { template, inputs, timeoutMs, concurrency, mode } = prepared;
      const runId = `run_${ulid()}`;
      const sessionCreated = request.sessionId === undefined;
      const session = sessionCreated
        ? sessions.ensure(sessions.newSessionId(), !template.meta.keepsSession)
        : prepared.session!;
      const plan = template.plan(inputs);
      const now = services.clock.now();
      const run: RunRecord = {
        runId,
        templateId: template.meta.templateId,
        templateVersion: template.meta.version,
        status: 'queued',
        sessionId: session.sessionId,
        sessionCreated,
        trustLevel: request.trustLevel,
        mode,
        inputs: template.redact(inputs),
        timeoutMs,
        concurrency,
        createdAt: now,
        updatedAt: now,
        cancelRequested: false,
        progress: { totalSteps: plan.length, doneSteps: 0 },
        steps: plan.map((s) => ({ stepId: s.stepId, status: 'pending' })),
      };
      runs.set(runId, run);
      onCreated?.(run);
      const entry = { template, inputs, session, scratch: {} } as LiveRun;
      const machine = runMachine.provide({
        actors: {
          runStep: fromPromise<unknown, RunStepInput>(async ({ input, signal }) => {
            // Let the transition that spawned this step finish, so ctx.steps() is current.
            await Promise.resolve();
            return template.runStep(stepContext(runId, entry, signal), {
              stepId: input.stepId,
              index: input.index,
              input: input.input,
            });
          }),
        },
      });
      const inspect = deps.inspectFor?.(runId);
      entry.actor = createActor(machine, {
        id: runId,
        input: {
          runId,
          templateId: template.meta.templateId,
          steps: plan,
          concurrency,
          supportsPartialSuccess: template.meta.supportsPartialSuccess,
          ...(template.meta.partialSuccessThreshold !== undefined
            ? { partialSuccessThreshold: template.meta.partialSuccessThreshold }
            : {}),
          timeoutMs,
        },
        ...(deps.actorClock ? { clock: deps.actorClock } : {}),
        ...(inspect ? { inspect } : {}),
      });
      live.set(runId, entry);
      entry.actor.subscribe({
        next(snapshot) {
          if (snapshot.status === 'done') {
            void finish(runId, snapshot.output!);
            return;
          }
          const status: RunStatus = runStatusOf(snapshot);
          run.status = isTerminalRunStatus(status) ? run.status : status; // terminal is set by finish, with the result
          run.cancelRequested = snapshot.context.cancelRequested;
          run.progress = runProgressOf(snapshot);
          run.steps = snapshot.context.steps.map(stepRecord);
          save(run);
        },
        error(error) {
          log({ event: 'run_actor_error', runId, error: String(error) });
        },
      });
      entry.actor.start();
      const stored = save(run);
      queue.push(runId);
      pump();
      // A shared store (cluster mode): the runId handed back must be readable on every node at
      // once, so a client that asks another node next never gets RUN_NOT_FOUND for it.
      if (store.get) await stored;
      return { ok: true, run };
    },

    /**
     * A run by id: this process's own (freshest) first, else the store's when it is shared
     * (cluster mode: a run another node stored, also after this one started).
     */
    async get(runId: string): Promise<RunRecord | undefined> {
      return runs.get(runId) ?? (store.get ? await store.get(runId) : undefined);
    },

    /** Newest first. A shared store answers (every node's runs), after this process's writes landed. */
    async list(filter: RunListFilter): Promise<{ total: number; runs: RunRecord[] }> {
      if (store.list) {
        await store.flush();
        const page = await store.list(filter);
        return { total: page.total, runs: page.runs.map((r) => runs.get(r.runId) ?? r) };
      }
      const all = [...runs.values()]
        .filter(
          (r) =>
            (filter.status ? r.status === filter.status : true) &&
            (filter.templateId ? r.templateId === filter.templateId : true),
        )
        .sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1));
      const offset = filter.offset ?? 0;
      return { total: all.length, runs: all.slice(offset, offset + (filter.limit ?? 20)) };
    },

    /** A run another node runs is not canceled from here: cancelRequested false, with its status. */
    async cancel(
      runId: string,
    ): Promise<{ ok: true; cancelRequested: boolean; currentStatus: RunStatus } | { ok: false; error: SeedError }> {
      const run = runs.get(runId) ?? (store.get ? await store.get(runId) : undefined);
      if (!run) return { ok: false, error: seedError('RUN_NOT_FOUND', `no run ${runId}`, { runId }) };
      const entry = live.get(runId);
      if (!entry || isTerminalRunStatus(run.status))
        return { ok: true, cancelRequested: false, currentStatus: run.status };
      entry.actor.send({ type: 'CANCEL' });
      const snapshot = entry.actor.getSnapshot();
      return {
        ok: true,
        cancelRequested: true,
        currentStatus: snapshot.status === 'done' ? snapshot.output!.status : runStatusOf(snapshot),
      };
    },

    /** Resolves with the run once it is terminal (result and artifacts written). */
    waitForEnd(runId: string, onChange?: RunListener): Promise<RunRecord> {
      const run = runs.get(runId);
      if (!run) return Promise.reject(new Error(`no run ${runId}`));
      if (isTerminalRunStatus(run.status)) return Promise.resolve(run);
      return new Promise((resolve) => {
        let set = listeners.get(runId);
        if (!set) listeners.set(runId, (set = new Set()));
        set.add((changed) => {
          onChange?.(changed);
          if (isTerminalRunStatus(changed.status)) resolve(changed);
        });
      });
    },

    /** True while a queued or running run works in this session. */
    usesSession(sessionId: string): boolean {
      for (const entry of live.values()) if (entry.session.sessionId === sessionId) return true;
      return false;
    },

    /**
     * The run that owns an artifact, for get_artifact's access rule. Run artifacts are stored
     * with the run id as their task id, so a shared store finds the run of another node too.
     */
    async artifactOwner(
      artifactId: string,
    ): Promise<{ run: RunRecord; artifact: NonNullable<RunRecord['artifacts']>[number] } | undefined> {
      for (const run of runs.values()) {
        const artifact = run.artifacts?.find((a) => a.artifactId === artifactId);
        if (artifact) return { run, artifact };
      }
      if (!store.get) return undefined;
      const opened = await services.artifacts.open(artifactId).catch(() => undefined);
      const run = opened && RUN_ID_PATTERN.test(opened.taskId) ? await store.get(opened.taskId) : undefined;
      const artifact = run?.artifacts?.find((a) => a.artifactId === artifactId);
      return run && artifact ? { run, artifact } : undefined;
    },

    /** Cancels live runs (server shutdown) and waits for stored writes. */
    async close(): Promise<void> {
      for (const entry of live.values()) entry.actor.send({ type: 'CANCEL' });
      await store.flush();
    },

    get running() {
      return running;
    },
    get queued() {
      return queue.length;
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;
export type { RunMode };
