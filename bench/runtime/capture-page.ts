// Captures the page the agent keeps of a corpus page (readable text and every indexed element
// with its box, exactly as the real extension returns them in headless Chromium) into
// bench/runtime/captured/, so `npm run bench` measures page-context tokens on real data without
// a browser. Regenerate after the extension's readability or dom index change:
//   node --import tsx bench/runtime/capture-page.ts sqlite-doc/lang_select.html
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { startEvalEnv } from '../../scripts/eval/eval-runner.ts';

const path = process.argv[2] ?? 'sqlite-doc/lang_select.html';
const ev = await startEvalEnv({ env: {} });
try {
  const run = await ev.env.runTask(`Open ${ev.corpus.url}/${path}`, { timeoutMs: 60_000 });
  if (run.error) throw new Error(run.error);
  const control = ev.env.app.server.control as unknown as {
    sessionOf(
      id: string,
    ): { browser: { fullPage: import('../../runtime/agent/page-context.ts').FullPage | null } } | undefined;
  };
  const page = control.sessionOf(run.taskId)?.browser.fullPage;
  if (!page) throw new Error('no page was read');
  const out = { ...page, url: `http://corpus.test/${path}`, boxes: [...page.boxes.entries()] };
  const file = new URL(`./captured/${basename(path, '.html')}.page.json`, import.meta.url).pathname;
  await writeFile(file, `${JSON.stringify(out)}\n`);
  console.log(`wrote ${file}: ${page.text.length} characters of text, ${page.elements.length} elements`);
} finally {
  await ev.close();
}
