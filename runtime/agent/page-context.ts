// Turns page preparation (screenshot + readability) and a DOM index into the compact page
// context the LLM sees, bounded so that one step stays within ~4k tokens (chars / 4).
import type { PageContext } from '../llm/llm-types.ts';

export const PAGE_TEXT_MAX_CHARS = 6_000;
export const PAGE_ELEMENTS_MAX = 120;
export const ELEMENT_TEXT_MAX_CHARS = 80;

interface IndexedElement {
  clickId: number;
  tag: string;
  text?: string | undefined;
  role?: string | undefined;
  type?: string | undefined;
  name?: string | undefined;
  label?: string | undefined;
  placeholder?: string | undefined;
  href?: string | undefined;
  target?: string | undefined;
  value?: string | undefined;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function pageContextOf(input: {
  tabId: number;
  url: string;
  title?: string | undefined;
  readability?: { text?: string | undefined; markdown?: string | undefined; title?: string | undefined; truncated?: boolean | undefined } | undefined;
  elements: IndexedElement[];
  warnings?: string[];
  missing?: string[];
}): PageContext {
  const fullText = (input.readability?.text ?? input.readability?.markdown ?? '').replace(/\n{3,}/g, '\n\n').trim();
  const truncated = fullText.length > PAGE_TEXT_MAX_CHARS || input.readability?.truncated === true;
  const elements = input.elements.slice(0, PAGE_ELEMENTS_MAX).map((e) => {
    const out: PageContext['elements'][number] = { clickId: e.clickId, tag: e.tag };
    const text = e.text?.replace(/\s+/g, ' ').trim();
    if (text) out.text = clip(text, ELEMENT_TEXT_MAX_CHARS);
    for (const key of ['role', 'type', 'name', 'placeholder', 'href', 'target', 'value'] as const) {
      const value = e[key];
      if (value) out[key] = clip(value, ELEMENT_TEXT_MAX_CHARS);
    }
    if (!out.text && e.label) out.text = clip(e.label, ELEMENT_TEXT_MAX_CHARS);
    return out;
  });
  const title = input.title ?? input.readability?.title;
  const context: PageContext = {
    tabId: input.tabId,
    url: input.url,
    ...(title ? { title } : {}),
    text: clip(fullText, PAGE_TEXT_MAX_CHARS),
    ...(truncated ? { truncated: true } : {}),
    elements,
  };
  if (input.warnings?.length) context.warnings = input.warnings;
  if (input.missing?.length) context.missing = input.missing;
  if (input.elements.length > PAGE_ELEMENTS_MAX) {
    context.warnings = [...(context.warnings ?? []), `only the first ${PAGE_ELEMENTS_MAX} of ${input.elements.length} elements are listed`];
  }
  return context;
}

/** The estimate the benchmark reports: characters of the JSON the LLM receives, divided by 4. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}
