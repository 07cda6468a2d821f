// `npm run demo`: the whole product on one machine. Starts the server (offline planner), serves
// fixtures/site, launches Debian Chromium headless with the extension, and runs three tasks
// through the web UI's socket protocol: summarise an article, extract the product table, fill
// and submit the form. Prints the streamed chat, the steps and the results, saves screenshots
// (the task tab's and the web UI's) under demo-output/, and exits 0 only if all three completed.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDemoEnv, type TaskRun } from './demo-env.ts';

const CHROMIUM = process.env.MIMO_CHROMIUM ?? '/usr/bin/chromium';
const outDir = join(new URL('..', import.meta.url).pathname, 'demo-output');
const log = (line = '') => process.stdout.write(`${line}\n`);

if (!existsSync(CHROMIUM)) {
  console.error(
    `The demo needs Chromium at ${CHROMIUM}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n(or set MIMO_CHROMIUM to another Chromium/Chrome binary).`,
  );
  process.exit(1);
}
await mkdir(outDir, { recursive: true });

const env = await startDemoEnv();
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const completed = (run: TaskRun) =>
  !run.error && run.status === 'ongoing' && run.text.trim().length > 0 && run.steps.every((s) => s.phase !== 'error');
const results: Array<{ name: string; run: TaskRun }> = [];
try {
  log(
    `Mimo demo: server ${env.baseUrl} (${env.app.llm.kind === 'offline' ? 'offline planner' : env.app.llm.model}), fixture site ${env.site.url}, extension connected.`,
  );
  const tasks = [
    ['Summarise an article', `Open ${env.site.url}/article.html and summarise it`],
    [
      'Extract the product table',
      `Open ${env.site.url}/products.html and extract the product names and prices as a table`,
    ],
    ['Fill and submit the form', `Open ${env.site.url}/form.html, type Ada Lovelace into the name field and submit`],
  ] as const;
  for (const [name, request] of tasks) {
    log(`\n=== ${name}\n> ${request}\n`);
    const run = await env.runTask(request, { onText: (chunk) => process.stdout.write(chunk) });
    log('\n\nSteps:');
    for (const s of run.steps)
      log(
        `  - ${s.actionName} ${s.paramsSummary} -> ${s.phase}${s.durationMs !== undefined ? ` (${s.durationMs} ms)` : ''}${s.error ? ` ${s.error.code}: ${s.error.message}` : ''}`,
      );
    const last = run.screenshots[run.screenshots.length - 1];
    if (last) {
      const res = await fetch(`${env.baseUrl}/api/artifacts/${last}`);
      if (res.ok) {
        const file = join(outDir, `${slug(name)}.png`);
        await writeFile(file, new Uint8Array(await res.arrayBuffer()));
        log(`Screenshot of the task tab: ${file}`);
      }
    }
    log(`Status: ${run.status}${run.error ? `  error ${run.error}` : ''}`);
    results.push({ name, run });
  }
  // A picture of the web UI (the README's): the last task open, at 1280x800.
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${env.baseUrl}/?token=${env.token}`);
  await page
    .locator('text=/^Open .*form/')
    .first()
    .click({ timeout: 5_000 })
    .catch(() => {});
  await page.waitForTimeout(2_000);
  await page.screenshot({ path: join(outDir, 'web-ui.png') });
  log(`\nWeb UI screenshot: ${join(outDir, 'web-ui.png')}`);
} finally {
  await env.close();
}

log('\n=== Summary');
for (const { name, run } of results)
  log(`  ${completed(run) ? 'ok  ' : 'FAIL'} ${name} (${run.status}, ${run.steps.length} steps)`);
const allOk = results.length === 3 && results.every(({ run }) => completed(run));
log(allOk ? '\nAll three tasks completed.' : '\nThe demo did not complete every task.');
process.exit(allOk ? 0 : 1);
