// Checks a run_task_template request before anything starts (seed 003 §4.1, §7, §9, §10):
// template, version, trust level, inputs, session; then the effective timeout, the tab window
// and the mode. Every refusal is a seed-format error; nothing is created on a refusal.
import type { BrowserSession, BrowserSessions } from '../browser/browser-sessions.ts';
import { SESSION_ID_PATTERN } from '../browser/browser-sessions.ts';
import type { TabBudget } from '../browser/tab-budget.ts';
import { versionSupported, type TemplateCatalog } from '../templates/template-catalog.ts';
import type { RunMode, TaskTemplate, TrustLevel } from '../templates/template-types.ts';
import { seedError, type SeedError } from '../tools/tool-errors.ts';

export interface RunRequest {
  templateId: string;
  templateVersion?: string | undefined;
  sessionId?: string | undefined;
  inputs?: unknown;
  options?: { timeoutMs?: number | undefined; mode?: 'sync' | 'async' | 'auto' | undefined } | undefined;
}

export type PreparedRun =
  | {
      ok: true;
      template: TaskTemplate;
      inputs: unknown;
      session: BrowserSession | null;
      timeoutMs: number;
      concurrency: number;
      mode: RunMode;
    }
  | { ok: false; error: SeedError };

export function prepareRun(
  request: RunRequest & { trustLevel: TrustLevel },
  deps: { catalog: TemplateCatalog; sessions: BrowserSessions; budget: TabBudget; maxRunTimeoutMs: number },
): PreparedRun {
  const template = deps.catalog.get(request.templateId);
  if (!template)
    return {
      ok: false,
      error: seedError('TEMPLATE_NOT_FOUND', `no template "${request.templateId}"`, {
        templateId: request.templateId,
        available: deps.catalog.ids(),
      }),
    };
  const { meta } = template;
  if (request.templateVersion !== undefined && !versionSupported(request.templateVersion, meta.version)) {
    return {
      ok: false,
      error: seedError(
        'TEMPLATE_VERSION_UNSUPPORTED',
        `${meta.templateId} ${request.templateVersion} is not supported (this runtime has ${meta.version})`,
        { templateId: meta.templateId, requested: request.templateVersion, available: [meta.version] },
      ),
    };
  }
  if (!meta.trustLevelSupport.includes(request.trustLevel)) {
    return {
      ok: false,
      error: seedError(
        'TRUST_LEVEL_NOT_ALLOWED',
        `${meta.templateId} cannot run on a ${request.trustLevel} connection`,
        { templateId: meta.templateId, trustLevel: request.trustLevel, trustLevelSupport: meta.trustLevelSupport },
      ),
    };
  }
  const parsed = template.inputs.safeParse(request.inputs ?? {});
  if (!parsed.success) {
    return {
      ok: false,
      error: seedError('INVALID_PARAMETER', `invalid inputs for ${meta.templateId}`, {
        templateId: meta.templateId,
        issues: parsed.error.issues.map((issue) => ({
          path: ['inputs', ...issue.path.map(String)].join('.'),
          message: issue.message,
        })),
      }),
    };
  }
  let session: BrowserSession | null = null;
  if (request.sessionId !== undefined) {
    if (!SESSION_ID_PATTERN.test(request.sessionId))
      return {
        ok: false,
        error: seedError('INVALID_PARAMETER', 'sessionId must match [a-zA-Z0-9._-]{1,64}', { field: 'sessionId' }),
      };
    session = deps.sessions.get(request.sessionId) ?? null;
    if (!session)
      return {
        ok: false,
        error: seedError('SESSION_NOT_FOUND', `no session "${request.sessionId}"`, { sessionId: request.sessionId }),
      };
  }
  const requested = request.options?.timeoutMs;
  const timeoutMs = Math.min(requested ?? meta.limits.maxTimeoutMs, meta.limits.maxTimeoutMs, deps.maxRunTimeoutMs);
  // Tabs left: what this session may still open; at least 1 (steps wait for a slot).
  const tabsLeft = Math.max(1, deps.budget.free(request.sessionId ?? '\u0000new-session'));
  const concurrency = Math.max(1, Math.min(template.concurrency(parsed.data), meta.limits.maxConcurrency, tabsLeft));
  const mode =
    request.options?.mode === 'sync' || request.options?.mode === 'async'
      ? request.options.mode
      : template.autoMode(parsed.data);
  return { ok: true, template, inputs: parsed.data, session, timeoutMs, concurrency, mode };
}
