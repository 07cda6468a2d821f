// batch_extract_pages (seed 003 §3, §4.1): one step per URL, each in its own worker tab (opened,
// read with readability, closed), a sliding window of tabs; items carry title and text; a run
// where some URLs fail is partial_success at >= 50 % success. "auto" is sync up to 5 URLs.
import { z } from 'zod';
import { countSteps, maxRunTimeoutMs, type RunStep } from '../../../machines/index.ts';
import { itemError, toolLayerError, httpStatusError, type TaskTemplate } from './template-types.ts';

export const BATCH_AUTO_SYNC_MAX_URLS = 5;

const inputs = z
  .object({
    urls: z.array(z.string().min(1).max(8192)).min(1).max(1000).describe('http(s) URLs to read, one item each'),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('tabs at once (default 3; also bounded by free tabs)'),
    maxTextChars: z
      .number()
      .int()
      .min(0)
      .max(20_000)
      .optional()
      .describe('text per item inlined in the result (default 2000); the JSON artifact has it all'),
  })
  .strict();
type Inputs = z.infer<typeof inputs>;

const item = z.object({
  url: z.string(),
  success: z.boolean(),
  status: z.enum(['succeeded', 'failed', 'skipped', 'pending', 'running']),
  finalUrl: z.string().optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  textLength: z.number().int().optional(),
  truncated: z.boolean().optional(),
  error: z.object({ code: z.string(), message: z.string(), cause: z.string().optional() }).optional(),
});

const outputs = z.object({
  summary: z.object({
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  items: z.array(item),
});

export interface ExtractedPage {
  url: string;
  finalUrl: string;
  title: string;
  text: string;
  truncated: boolean;
}

function csvCell(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const batchExtractPages: TaskTemplate<Inputs> = {
  meta: {
    templateId: 'batch_extract_pages',
    version: '1.0.0',
    name: 'Batch page extraction',
    description:
      'Opens each URL in its own background tab, extracts the readable title and text, closes the tab. Some URLs may fail (partial_success).',
    trustLevelSupport: ['local', 'remote'],
    supportsPartialSuccess: true,
    partialSuccessThreshold: 0.5,
    limits: { maxUrls: 1000, maxConcurrency: 5, maxTimeoutMs: maxRunTimeoutMs },
    keepsSession: false,
  },
  inputs,
  outputs,
  autoMode: (i) => (i.urls.length <= BATCH_AUTO_SYNC_MAX_URLS ? 'sync' : 'async'),
  concurrency: (i) => i.concurrency ?? 3,
  plan: (i) => i.urls.map((url, index) => ({ stepId: `extract-${index + 1}`, input: { url } })),

  async runStep(ctx, step) {
    const { url } = step.input as { url: string };
    return ctx.withWorkerTab(async (page): Promise<ExtractedPage> => {
      const opened = await page.open(url, ctx.signal);
      if (!opened.ok) throw toolLayerError(opened.error, 'navigate');
      const httpError = httpStatusError(opened.value);
      if (httpError) throw httpError;
      const read = await page.readText(ctx.signal);
      if (!read.ok) throw toolLayerError(read.error, 'extract');
      return {
        url,
        finalUrl: opened.value.url,
        title: read.value.title || opened.value.title,
        text: read.value.text,
        truncated: read.value.truncated,
      };
    });
  },

  buildResult(i, steps) {
    const max = i.maxTextChars ?? 2000;
    const full = steps.map((step: RunStep, index) => {
      const url = i.urls[index]!;
      if (step.status === 'succeeded') {
        const page = step.output as ExtractedPage;
        return {
          url,
          success: true,
          status: step.status,
          finalUrl: page.finalUrl,
          title: page.title,
          text: page.text,
          textLength: page.text.length,
          truncated: page.truncated,
        };
      }
      return { url, success: false, status: step.status, ...(step.error ? { error: itemError(step.error) } : {}) };
    });
    const items = full.map((entry) =>
      'text' in entry && entry.text !== undefined && entry.text.length > max
        ? { ...entry, text: entry.text.slice(0, max), truncated: true }
        : entry,
    );
    const counts = countSteps(steps);
    const summary = {
      total: counts.total,
      succeeded: counts.succeeded,
      failed: counts.failed,
      skipped: counts.skipped,
    };
    const csv = [
      'url,success,status,title,textLength,errorCode',
      ...full.map((e) =>
        [
          e.url,
          e.success,
          e.status,
          'title' in e ? e.title : '',
          'textLength' in e ? e.textLength : '',
          'error' in e ? e.error?.code : '',
        ]
          .map(csvCell)
          .join(','),
      ),
    ].join('\n');
    return {
      result: { summary, items },
      artifacts: [
        { type: 'json', mimeType: 'application/json', bytes: JSON.stringify({ summary, items: full }) },
        { type: 'csv', mimeType: 'text/csv', bytes: `${csv}\n` },
      ],
    };
  },

  redact: (i) => ({ ...i }),
};
