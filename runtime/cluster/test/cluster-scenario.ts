// Shared by the cluster fault tests and the chaos run: a deterministic mock model (what it does
// depends only on the conversation: the last user message's words and the tool results since),
// an extension answerer whose second click can be held per task, and readers of the history.
import { completionChunks } from '../../llm/mock-openai-chunks.ts';
import type { MockRequestInfo } from '../../llm/mock-openai-server.ts';
import { okAnswer, type Answerer, type FakeAnswer } from '../../test-util/fake-plugin.ts';
import { authHeaders } from './cluster-harness.ts';

/** The one site of every plan; a task's first message names it (issue 23: the person guard holds
 * a page outside the sites the person named). */
export const SITE = 'http://127.0.0.1:9';

/** Plans by a word of the user message: the tool calls in order, then the answer. */
export const PLANS: Record<string, { tools: Array<[string, Record<string, unknown>]>; final: string }> = {
  'open one': { tools: [['browser_open', { url: `${SITE}/one` }]], final: 'Opened page one.' },
  'click both': {
    tools: [
      ['browser_open', { url: `${SITE}/two` }],
      ['browser_click', { clickId: 1 }],
      ['browser_click', { clickId: 2 }],
    ],
    final: 'Clicked both buttons.',
  },
  'click three': {
    tools: [
      ['browser_open', { url: `${SITE}/three` }],
      ['browser_click', { clickId: 3 }],
    ],
    final: 'Clicked three.',
  },
  'just answer': { tools: [], final: 'Here is my answer.' },
};

export function model({ body }: MockRequestInfo) {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== 'user') lastUser--;
  const text = String(messages[lastUser]?.content ?? '');
  const plan = Object.entries(PLANS).find(([key]) => text.includes(key))?.[1];
  if (!plan) return completionChunks({ text: 'I do not know that task.' });
  const done = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  const next = plan.tools[done];
  if (!next) return completionChunks({ text: plan.final });
  return completionChunks({ toolCalls: [{ id: `call-${done}`, name: next[0], arguments: JSON.stringify(next[1]) }] });
}

/** The extension's answers; the result of `browser_click` 2 of a held task waits until released. */
export function holdingAnswerer(): { answer: Answerer; hold(taskId: string): void; release(taskId: string): void } {
  const held = new Map<string, { promise: Promise<void>; open: () => void }>();
  return {
    hold(taskId) {
      let open!: () => void;
      const promise = new Promise<void>((r) => (open = r));
      held.set(taskId, { promise, open });
    },
    release(taskId) {
      held.get(taskId)?.open();
      held.delete(taskId);
    },
    answer: async (name, params, frame): Promise<FakeAnswer> => {
      if (name === 'browser_readability_extract')
        return { result: { status: 'success', result: { title: 'Page', text: 'A page with three buttons.' } } };
      if (name === 'browser_dom_index') {
        return {
          result: {
            status: 'success',
            result: { elements: [1, 2, 3].map((clickId) => ({ clickId, tag: 'button', text: `B${clickId}` })) },
          },
        };
      }
      // Acknowledged at once (the extension has it), its result only once released.
      const hold = name === 'browser_click' && params.clickId === 2 ? held.get(frame.taskId)?.promise : undefined;
      return hold ? { ...okAnswer(name, params), until: hold } : okAnswer(name, params);
    },
  };
}

export interface StoredMessage {
  id: string;
  role: string;
  content: string;
}

export async function historyOf(url: string, taskId: string): Promise<{ status: string; messages: StoredMessage[] }> {
  const body = (await (await fetch(`${url}/api/task/${taskId}`, { headers: authHeaders })).json()) as any;
  return { status: body.data?.task?.status, messages: body.data?.messages ?? [] };
}

export const answers = (messages: StoredMessage[]) =>
  messages.filter((m) => m.role === 'assistant').map((m) => m.content);
export const notes = (messages: StoredMessage[], pattern: RegExp) =>
  messages.filter((m) => m.role === 'system' && pattern.test(m.content));

let seq = 0;
export function userMessage(taskId: string, content: string, id = `msg-${Date.now().toString(36)}-${seq++}`) {
  return { v: 1, type: 'user_message', id, timestamp: Date.now(), taskId, content };
}
