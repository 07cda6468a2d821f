// The planner's fixed texts: who it is, what it can do, how to configure a real LLM, and how
// it reports failures. Every final answer starts with ANSWER_PREFIX so no one mistakes it for a model.
import type { ToolStep } from './conversation.ts';

export const ANSWER_PREFIX = 'Offline planner (no LLM configured): ';
export const STEP_PREFIX = '[offline planner] ';

export const CAPABILITIES = [
  'I am the offline planner that Mimo uses when no LLM is configured. I follow simple, explicit requests with rules, not a language model:',
  '- open a URL and summarise the page ("open https://example.com and summarise it")',
  '- extract names and prices as a table ("list the products and prices on https://shop.example/products")',
  '- click a link or button by its visible text (click "Add to cart", press the Next button)',
  '- type into a field and submit (search for "blue mug", type hello into the name field and submit)',
  '- add items to a list ("add a todo called Buy milk"), check or uncheck boxes ("mark Buy milk as complete", "check I like cherry")',
  '- choose an option ("choose Cat in the pet select") and extract any table on a page ("extract the table")',
  '- open a link in a new tab and switch to it ("open the article in a new tab and switch to it")',
  '',
  'For real conversations, configure an OpenAI-compatible LLM before starting the server: set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider or a local server) and optionally MIMO_MODEL (default gpt-4o-mini).',
].join('\n');

export function chatAnswer(topic: 'greeting' | 'help' | 'thanks'): string {
  if (topic === 'greeting') return `${ANSWER_PREFIX}hello!\n\n${CAPABILITIES}`;
  if (topic === 'thanks') return `${ANSWER_PREFIX}you're welcome. Anything else? If you need ideas:\n\n${CAPABILITIES}`;
  return `${ANSWER_PREFIX}here is what I can do.\n\n${CAPABILITIES}`;
}

export function unknownAnswer(request: string, dropped?: Array<{ text: string; reason: string }>): string {
  const why = dropped?.length ? `\n\n${dropped.map((d) => `- "${clip(d.text, 80)}": ${d.reason}`).join('\n')}` : '';
  return `${ANSWER_PREFIX}I could not map this request to something I can do without an LLM: "${clip(request, 200)}".${why}\n\n${CAPABILITIES}`;
}

export function failureAnswer(step: ToolStep, done: string[], notDone: string[] = []): string {
  const error = step.error ?? { code: 'UNKNOWN', message: 'the tool gave no result' };
  const lines = [
    `${ANSWER_PREFIX}the step ${step.name} failed with ${error.code}: ${error.message}`,
    '',
    'I stopped there and did not retry.',
  ];
  if (done.length > 0) lines.push('', 'Done before the failure:', ...done.map((d) => `- ${d}`));
  if (notDone.length > 0) lines.push('', 'Not done:', ...notDone.map((d) => `- ${d}`));
  return lines.join('\n');
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
