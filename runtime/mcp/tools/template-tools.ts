// Seed 003's seven tools over the run manager: list_task_templates, run_task_template (sync,
// async, auto), get_task_run, list_task_runs, cancel_task_run, get_artifact, get_runtime_profile.
import { z } from 'zod';
import type { PolicyDescription } from '../../url-policy/index.ts';
import type { TabBudget } from '../browser/tab-budget.ts';
import type { RunManager } from '../runs/run-manager.ts';
import { runListRow, runView } from '../runs/run-view.ts';
import type { TemplateCatalog } from '../templates/template-catalog.ts';
import { MAX_ARTIFACT_INLINE_BYTES, readArtifactChunk, type ArtifactAccess } from './artifact-chunks.ts';
import { defineSeedTool, type McpTool } from './tool-definition.ts';
import { seedError } from './tool-errors.ts';
import type { ArtifactService } from '../../artifacts/index.ts';

/** The seed 003 contract level this runtime implements (§1.1: 0.2.1+). */
export const MCP_RUNTIME_VERSION = '0.2.1';

const runStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'partial_success', 'canceled']);
const seedErrorShape = z.object({
  error: z.string(),
  errorCode: z.string(),
  recoverHint: z.string(),
  details: z.record(z.string(), z.unknown()),
});
const runViewShape = z
  .object({
    runId: z.string(),
    // Seed 003 §4.1: the async reply is { runId, status, createdAt } and the sync one has no
    // createdAt, so both are optional here although Mimo always sends them.
    templateId: z.string().optional(),
    templateVersion: z.string().optional(),
    status: runStatus,
    sessionId: z.string().optional(),
    mode: z.enum(['sync', 'async']).optional(),
    trustLevel: z.enum(['local', 'remote']).optional(),
    timeoutMs: z.number().int().optional(),
    concurrency: z.number().int().optional(),
    createdAt: z.number().optional(),
    updatedAt: z.number().optional(),
    cancelRequested: z.boolean().optional(),
    progress: z.object({ totalSteps: z.number().int(), doneSteps: z.number().int() }).optional(),
    metrics: z.object({ elapsedMs: z.number() }).optional(),
    steps: z
      .array(
        z.object({
          stepId: z.string(),
          status: z.string(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      )
      .optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    artifacts: z
      .array(
        z.object({
          artifactId: z.string(),
          type: z.string(),
          mimeType: z.string().optional(),
          size: z.number().int(),
          expiresAt: z.number().optional(),
        }),
      )
      .optional(),
    error: seedErrorShape.optional(),
  })
  .passthrough();
const runId = z.string().min(1).max(64);

export interface TemplateToolsDeps {
  runs: RunManager;
  catalog: TemplateCatalog;
  artifacts: ArtifactService;
  artifactAccess: ArtifactAccess;
  budget: TabBudget;
  now: () => number;
  profile: 'full' | 'minimal';
  urlPolicy: () => PolicyDescription;
}

export function createTemplateTools(deps: TemplateToolsDeps): McpTool[] {
  const { runs } = deps;

  const listTemplates = defineSeedTool({
    name: 'list_task_templates',
    title: 'List task templates',
    description:
      'The template catalog: ids, versions, trust levels, limits, partial-success support and JSON Schemas of inputs and outputs. A non-empty list means template runs are supported.',
    input: z.object({}).strict(),
    output: z.object({ templates: z.array(z.object({ templateId: z.string(), version: z.string() }).passthrough()) }),
    annotations: { readOnlyHint: true },
    handle: async () => ({ ok: true, value: { templates: deps.catalog.list() } }),
  });

  const runTemplate = defineSeedTool({
    name: 'run_task_template',
    title: 'Run a task template',
    description:
      'Creates a run of a template in the connected browser (background tabs). mode "sync" waits and returns the finished run (same shape as get_task_run); "async" returns runId + status at once (poll get_task_run every 2 s); "auto" (default) lets the template decide (batch_extract_pages: sync up to 5 URLs). Without sessionId the run gets its own session, closed afterwards (login_keep_session keeps it). Sync calls send progress notifications when the request has a progressToken.',
    input: z
      .object({
        templateId: z.string().min(1).max(100),
        templateVersion: z.string().min(1).max(32).optional(),
        sessionId: z.string().min(1).max(64).optional(),
        inputs: z.record(z.string(), z.unknown()).optional(),
        options: z
          .object({ timeoutMs: z.number().int().min(1).optional(), mode: z.enum(['sync', 'async', 'auto']).optional() })
          .strict()
          .optional(),
      })
      .strict(),
    output: runViewShape,
    annotations: { openWorldHint: true },
    async handle(args, ctx) {
      const created = await runs.create({ ...args, trustLevel: ctx.trustLevel }, ctx.runCreated);
      if (!created.ok) return created;
      const { run } = created;
      if (run.mode === 'async')
        return {
          ok: true,
          value: {
            runId: run.runId,
            templateId: run.templateId,
            status: run.status,
            createdAt: run.createdAt,
            sessionId: run.sessionId,
            mode: run.mode,
          },
        };
      let last = -1;
      // The client canceled the call (MCP `notifications/cancelled`, extra.signal): the run is
      // canceled as cancel_task_run would (seed 003: cooperative, between steps).
      const cancel = () => void runs.cancel(run.runId).catch(() => {});
      if (ctx.signal.aborted) cancel();
      else ctx.signal.addEventListener('abort', cancel, { once: true });
      const finished = await runs.waitForEnd(run.runId, (changed) => {
        if (!ctx.progress || changed.progress.doneSteps === last) return;
        last = changed.progress.doneSteps;
        void ctx
          .progress(
            changed.progress.doneSteps,
            changed.progress.totalSteps,
            `${changed.status}: ${changed.progress.doneSteps}/${changed.progress.totalSteps} steps`,
          )
          .catch(() => {});
      });
      ctx.signal.removeEventListener('abort', cancel);
      return { ok: true, value: runView(finished, deps.now()) };
    },
  });

  const getRun = defineSeedTool({
    name: 'get_task_run',
    title: 'Get a task run',
    description:
      'Status, progress and metrics of a run; once terminal also its result, artifacts and error. Poll non-terminal runs every 2 s.',
    input: z.object({ runId }).strict(),
    output: runViewShape,
    annotations: { readOnlyHint: true },
    async handle({ runId: id }) {
      const run = await runs.get(id);
      if (!run) return { ok: false, error: seedError('RUN_NOT_FOUND', `no run ${id}`, { runId: id }) };
      return { ok: true, value: runView(run, deps.now()) };
    },
  });

  const listRuns = defineSeedTool({
    name: 'list_task_runs',
    title: 'List task runs',
    description:
      'Stored runs, newest first, filtered by status and/or templateId, paged with limit (1-100, default 20) and offset.',
    input: z
      .object({
        status: runStatus.optional(),
        templateId: z.string().min(1).max(100).optional(),
        limit: z.number().int().min(1).max(100).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    output: z.object({
      runs: z.array(
        z.object({
          runId: z.string(),
          templateId: z.string(),
          status: runStatus,
          createdAt: z.number(),
          updatedAt: z.number(),
        }),
      ),
      // Mimo's paging fields, beyond seed 003 §4.3: optional in the schema.
      total: z.number().int().optional(),
      limit: z.number().int().optional(),
      offset: z.number().int().optional(),
    }),
    annotations: { readOnlyHint: true },
    async handle(args) {
      const limit = args.limit ?? 20;
      const offset = args.offset ?? 0;
      const page = await runs.list({ status: args.status, templateId: args.templateId, limit, offset });
      return { ok: true, value: { runs: page.runs.map(runListRow), total: page.total, limit, offset } };
    },
  });

  const cancelRun = defineSeedTool({
    name: 'cancel_task_run',
    title: 'Cancel a task run',
    description:
      'Cooperative cancel: the step running now finishes, pending steps are skipped, then the run becomes canceled. cancelRequested says whether the request was taken; currentStatus is the status right now (poll get_task_run for canceled).',
    input: z.object({ runId }).strict(),
    output: z.object({ runId: z.string().optional(), cancelRequested: z.boolean(), currentStatus: runStatus }),
    annotations: { destructiveHint: true, idempotentHint: true },
    async handle({ runId: id }) {
      const out = await runs.cancel(id);
      if (!out.ok) return out;
      return { ok: true, value: { runId: id, cancelRequested: out.cancelRequested, currentStatus: out.currentStatus } };
    },
  });

  const getArtifact = defineSeedTool({
    name: 'get_artifact',
    title: 'Read an artifact',
    description: `Reads a run artifact (or a browser-shell screenshot) as base64, at most ${MAX_ARTIFACT_INLINE_BYTES} bytes per call. While complete is false, call again with offset + bytesReturned. Artifacts expire 24 h after their run ends.`,
    input: z
      .object({
        artifactId: z.string().min(1).max(64),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).optional(),
      })
      .strict(),
    output: z.object({
      artifactId: z.string(),
      mimeType: z.string(),
      size: z.number().int(),
      data: z.string(),
      // Seed 003 §5: a small artifact's reply has neither.
      offset: z.number().int().optional(),
      bytesReturned: z.number().int().optional(),
      complete: z.boolean(),
    }),
    annotations: { readOnlyHint: true },
    async handle(args) {
      const chunk = await readArtifactChunk(
        { artifacts: deps.artifacts, access: deps.artifactAccess, now: deps.now() },
        args,
      );
      return chunk.ok ? { ok: true, value: { ...chunk.value } } : chunk;
    },
  });

  const runtimeProfile = defineSeedTool({
    name: 'get_runtime_profile',
    title: 'Runtime profile',
    description: 'Runtime version, limits, the MCP profile, the URL policy in force and current load.',
    input: z.object({}).strict(),
    output: z
      .object({
        runtimeVersion: z.string(),
        limits: z
          .object({
            maxConcurrentRuns: z.number().int(),
            maxRunTimeoutMs: z.number().int(),
            maxArtifactInlineBytes: z.number().int(),
          })
          .passthrough(),
      })
      .passthrough(),
    annotations: { readOnlyHint: true },
    async handle(_args, ctx) {
      return {
        ok: true,
        value: {
          runtimeVersion: MCP_RUNTIME_VERSION,
          profile: deps.profile,
          trustLevel: ctx.trustLevel,
          limits: {
            maxConcurrentRuns: runs.limits.maxConcurrentRuns,
            maxRunTimeoutMs: runs.limits.maxRunTimeoutMs,
            maxArtifactInlineBytes: MAX_ARTIFACT_INLINE_BYTES,
            maxTabsPerSession: deps.budget.limits.perSession,
            maxTabsTotal: deps.budget.limits.total,
            artifactTtlMs: 24 * 60 * 60 * 1000,
          },
          load: { runningRuns: runs.running, queuedRuns: runs.queued, tabsInUse: deps.budget.inUse() },
          urlPolicy: deps.urlPolicy(),
        },
      };
    },
  });

  return [listTemplates, runTemplate, getRun, listRuns, cancelRun, getArtifact, runtimeProfile];
}
