// A deliberately gullible model behind the mock OpenAI-compatible server (issue 23): it obeys
// every instruction it reads, wherever it reads it (the person's message, page text, element
// names, tab titles), in the order it read them, one tool call per step. Instructions are plain
// imperatives: `open <url>`, `click '<name>'`, `type '<text>' into '<field>' [and submit]`;
// `{code}` stands for the first six-digit number it has seen (a one-time code to steal).
import { completionChunks, startMockOpenAiServer, type MockOpenAiServer } from '../../llm/index.ts';

type Instruction =
  | { op: 'open'; url: string }
  | { op: 'click'; name: string }
  | { op: 'type'; text: string; field: string; submit: boolean };

const INSTRUCTION =
  /\b(?:open|go to|visit)\s+(https?:\/\/[^\s'"\\<>)]+)|\bclick '([^']+)'|\btype '([^']*)' into '([^']+)'( and submit)?/gi;

const unescape = (content: string) => content.replace(/\\"/g, '"').replace(/\\n/g, '\n');

export function instructionsIn(text: string, code: string | undefined): Instruction[] {
  const out: Instruction[] = [];
  for (const m of unescape(text).matchAll(INSTRUCTION)) {
    const fill = (s: string) => (code ? s.replace(/\{code\}/g, code) : s);
    if (m[1]) out.push({ op: 'open', url: fill(m[1].replace(/[.,;]+$/, '')) });
    else if (m[2]) out.push({ op: 'click', name: m[2] });
    else if (m[4]) out.push({ op: 'type', text: fill(m[3] ?? ''), field: m[4], submit: m[5] !== undefined });
  }
  return out;
}

interface OpenAiMessage {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
}

/** The elements of the newest page the model was shown (tool results carry them). */
function latestElements(messages: OpenAiMessage[]): Array<Record<string, unknown>> {
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i]!.role === 'tool' ? (messages[i]!.content ?? '') : '';
    const start = content.indexOf('{');
    const end = content.lastIndexOf('}');
    if (start < 0) continue;
    try {
      const parsed = JSON.parse(content.slice(start, end + 1)) as {
        result?: { page?: { elements?: Array<Record<string, unknown>> } };
      };
      const elements = parsed.result?.page?.elements;
      if (Array.isArray(elements)) return elements;
    } catch {
      // not a page
    }
  }
  return [];
}

const named = (elements: Array<Record<string, unknown>>, name: string) =>
  elements.find((e) =>
    [e.text, e.label, e.placeholder, e.name].some(
      (w) => typeof w === 'string' && w.toLowerCase() === name.toLowerCase(),
    ),
  );

export interface GullibleModel {
  server: MockOpenAiServer;
  /** Every instruction it acted on, in order (what an obedient model would have done). */
  obeyed: Instruction[];
  close(): Promise<void>;
}

export async function startGullibleModel(): Promise<GullibleModel> {
  const done = new Set<string>();
  const obeyed: Instruction[] = [];
  let calls = 0;
  const server = await startMockOpenAiServer({
    script: ({ body }) => {
      const messages = (body.messages ?? []) as OpenAiMessage[];
      const everything = messages.map((m) => m.content ?? '').join('\n');
      const code = /\b\d{6}\b/.exec(
        messages
          .filter((m) => m.role !== 'user')
          .map((m) => m.content ?? '')
          .join('\n'),
      )?.[0];
      const next = messages
        .flatMap((m) => instructionsIn(m.content ?? '', code))
        .find((i) => !done.has(JSON.stringify(i)));
      void everything;
      if (!next) return completionChunks({ text: 'Done.' });
      done.add(JSON.stringify(next));
      obeyed.push(next);
      const id = `call_${++calls}`;
      const elements = latestElements(messages);
      if (next.op === 'open')
        return completionChunks({
          toolCalls: [{ id, name: 'browser_open', arguments: JSON.stringify({ url: next.url }) }],
        });
      const target = named(elements, next.op === 'click' ? next.name : next.field);
      const clickId = typeof target?.clickId === 'number' ? target.clickId : 999;
      if (next.op === 'click')
        return completionChunks({ toolCalls: [{ id, name: 'browser_click', arguments: JSON.stringify({ clickId }) }] });
      return completionChunks({
        toolCalls: [
          {
            id,
            name: 'browser_type',
            arguments: JSON.stringify({ clickId, text: next.text, ...(next.submit ? { submit: true } : {}) }),
          },
        ],
      });
    },
  });
  return { server, obeyed, close: () => server.close() };
}
