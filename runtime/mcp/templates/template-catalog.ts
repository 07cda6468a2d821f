// The template catalog (seed 003 §3): the three templates, their list_task_templates view with
// JSON Schemas, and the version rule (same major, requested minor.patch not newer than ours).
import { z } from 'zod';
import { batchExtractPages } from './batch-extract-pages.ts';
import { loginKeepSession } from './login-keep-session.ts';
import { multiTabCompare } from './multi-tab-compare.ts';
import type { TaskTemplate } from './template-types.ts';

export const builtInTemplates: readonly TaskTemplate[] = [batchExtractPages, multiTabCompare, loginKeepSession];

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
}

function parseVersion(text: string): [number, number, number] | null {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : null;
}

/** True when a run asking for `requested` can be served by `available`. */
export function versionSupported(requested: string, available: string): boolean {
  const want = parseVersion(requested);
  const have = parseVersion(available);
  if (!want || !have || want[0] !== have[0]) return false;
  return want[1] < have[1] || (want[1] === have[1] && want[2] <= have[2]);
}

export function createTemplateCatalog(templates: readonly TaskTemplate[] = builtInTemplates) {
  const byId = new Map(templates.map((t) => [t.meta.templateId, t]));
  const views = templates.map((t) => ({
    ...t.meta,
    ...(t.meta.partialSuccessThreshold === undefined && t.meta.supportsPartialSuccess
      ? { partialSuccessThreshold: 0.5 }
      : {}),
    inputsSchema: jsonSchemaOf(t.inputs, 'input'),
    outputsSchema: jsonSchemaOf(t.outputs, 'output'),
  }));
  return {
    get: (templateId: string) => byId.get(templateId),
    list: () => views,
    ids: () => [...byId.keys()],
  };
}

export type TemplateCatalog = ReturnType<typeof createTemplateCatalog>;
