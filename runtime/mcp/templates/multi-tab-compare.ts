// multi_tab_compare (seed 003 §6): opens 2-10 pages side by side in worker tabs (the window lets
// several be open at once), extracts each page's text, then compares them without an LLM: word
// counts, keyword hits, prices found, terms shared by all pages and terms only one page has.
// Pages that fail are reported and left out of the comparison (partial_success allowed).
import { z } from 'zod';
import { countSteps } from '../../../machines/index.ts';
import { itemError, toolLayerError, httpStatusError, type TaskTemplate } from './template-types.ts';

const inputs = z
  .object({
    urls: z.array(z.string().min(1).max(8192)).min(2).max(10).describe('2-10 http(s) URLs to compare'),
    keywords: z
      .array(z.string().min(1).max(100))
      .max(20)
      .optional()
      .describe('terms to count on every page (case-insensitive)'),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('tabs open at once (default 5; also bounded by free tabs)'),
  })
  .strict();
type Inputs = z.infer<typeof inputs>;

export interface ComparedPage {
  url: string;
  finalUrl: string;
  title: string;
  wordCount: number;
  keywordCounts: Record<string, number>;
  prices: number[];
  terms: string[];
}

const STOP = new Set(
  'the and for are but not you all any can had her was one our out his has how its may new now who did get use that with have this will your from they been more when what some than them into only also most such just over were there their which about would could other these those where while after before being'.split(
    ' ',
  ),
);

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function topTerms(words: string[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const w of words) if (w.length >= 4 && !STOP.has(w) && !/^\d+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
}

export function pricesIn(text: string): number[] {
  const found: number[] = [];
  for (const match of text.matchAll(/[$€£¥]\s?(\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)/g)) {
    const value = Number(match[1]!.replace(/,/g, ''));
    if (Number.isFinite(value)) found.push(value);
  }
  return found.slice(0, 200);
}

function countOccurrences(haystack: string, needle: string): number {
  const h = haystack.toLowerCase();
  const n = needle.toLowerCase();
  let count = 0;
  for (let at = h.indexOf(n); at >= 0; at = h.indexOf(n, at + n.length)) count++;
  return count;
}

const outputs = z.object({
  summary: z.object({
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  items: z.array(z.object({ url: z.string(), success: z.boolean(), status: z.string() }).passthrough()),
  comparison: z.object({
    compared: z.array(z.string()),
    wordCount: z.record(z.string(), z.number()),
    longest: z.string().nullable(),
    shortest: z.string().nullable(),
    keywords: z.record(z.string(), z.record(z.string(), z.number())),
    bestKeywordMatch: z.string().nullable(),
    prices: z.record(z.string(), z.object({ min: z.number(), max: z.number(), count: z.number() })),
    cheapest: z.string().nullable(),
    commonTerms: z.array(z.string()),
    uniqueTerms: z.record(z.string(), z.array(z.string())),
  }),
});

export const multiTabCompare: TaskTemplate<Inputs> = {
  meta: {
    templateId: 'multi_tab_compare',
    version: '1.0.0',
    name: 'Multi-tab comparison',
    description:
      'Opens several pages in parallel background tabs, extracts them and compares word counts, keyword hits, prices and distinctive terms. Pages that fail are left out (partial_success).',
    trustLevelSupport: ['local', 'remote'],
    supportsPartialSuccess: true,
    partialSuccessThreshold: 0.5,
    limits: { maxUrls: 10, maxConcurrency: 5, maxTimeoutMs: 300_000 },
    keepsSession: false,
  },
  inputs,
  outputs,
  autoMode: () => 'sync',
  concurrency: (i) => i.concurrency ?? 5,
  plan: (i) => i.urls.map((url, index) => ({ stepId: `tab-${index + 1}`, input: { url } })),

  async runStep(ctx, step) {
    const { url } = step.input as { url: string };
    return ctx.withWorkerTab(async (page): Promise<ComparedPage> => {
      const opened = await page.open(url, ctx.signal);
      if (!opened.ok) throw toolLayerError(opened.error, 'navigate');
      const httpError = httpStatusError(opened.value);
      if (httpError) throw httpError;
      const read = await page.readText(ctx.signal);
      if (!read.ok) throw toolLayerError(read.error, 'extract');
      const text = read.value.text;
      const words = wordsOf(text);
      const keywordCounts = Object.fromEntries((ctx.inputs.keywords ?? []).map((k) => [k, countOccurrences(text, k)]));
      return {
        url,
        finalUrl: opened.value.url,
        title: read.value.title || opened.value.title,
        wordCount: words.length,
        keywordCounts,
        prices: pricesIn(text),
        terms: topTerms(words, 40),
      };
    });
  },

  buildResult(i, steps) {
    const pages: ComparedPage[] = [];
    const items = steps.map((step, index) => {
      const url = i.urls[index]!;
      if (step.status !== 'succeeded') {
        return { url, success: false, status: step.status, ...(step.error ? { error: itemError(step.error) } : {}) };
      }
      const page = step.output as ComparedPage;
      pages.push(page);
      const { terms, ...rest } = page;
      return { ...rest, success: true, status: step.status, topTerms: terms.slice(0, 10) };
    });
    const byWords = [...pages].sort((a, b) => b.wordCount - a.wordCount);
    const keywords: Record<string, Record<string, number>> = {};
    for (const k of i.keywords ?? [])
      keywords[k] = Object.fromEntries(pages.map((p) => [p.url, p.keywordCounts[k] ?? 0]));
    const keywordTotal = (p: ComparedPage) => Object.values(p.keywordCounts).reduce((a, b) => a + b, 0);
    const best =
      (i.keywords?.length ?? 0) > 0 ? [...pages].sort((a, b) => keywordTotal(b) - keywordTotal(a))[0] : undefined;
    const prices: Record<string, { min: number; max: number; count: number }> = {};
    for (const p of pages)
      if (p.prices.length > 0)
        prices[p.url] = { min: Math.min(...p.prices), max: Math.max(...p.prices), count: p.prices.length };
    const cheapest = Object.entries(prices).sort((a, b) => a[1].min - b[1].min)[0]?.[0] ?? null;
    const termSets = pages.map((p) => new Set(p.terms));
    const commonTerms =
      pages.length > 1 ? pages[0]!.terms.filter((t) => termSets.every((s) => s.has(t))).slice(0, 20) : [];
    const uniqueTerms = Object.fromEntries(
      pages.map((p, n) => [p.url, p.terms.filter((t) => termSets.every((s, m) => m === n || !s.has(t))).slice(0, 10)]),
    );
    const counts = countSteps(steps);
    const result = {
      summary: { total: counts.total, succeeded: counts.succeeded, failed: counts.failed, skipped: counts.skipped },
      items,
      comparison: {
        compared: pages.map((p) => p.url),
        wordCount: Object.fromEntries(pages.map((p) => [p.url, p.wordCount])),
        longest: byWords[0]?.url ?? null,
        shortest: byWords[byWords.length - 1]?.url ?? null,
        keywords,
        bestKeywordMatch: best && keywordTotal(best) > 0 ? best.url : null,
        prices,
        cheapest,
        commonTerms,
        uniqueTerms,
      },
    };
    return { result, artifacts: [{ type: 'json', mimeType: 'application/json', bytes: JSON.stringify(result) }] };
  },

  redact: (i) => ({ ...i }),
};
