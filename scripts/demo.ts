// `npm run demo`: the whole product on one machine. Starts the server (offline planner), serves
// fixtures/site, launches Debian Chromium headless with the extension, and runs three tasks
// through the web UI's socket protocol: summarise an article, extract the product table, fill
// and submit the form. Prints the streamed chat, the steps and the results, saves screenshots
// (the task tab's and the web UI's) under demo-output/, and exits 0 only if all three completed.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { serveFixtureSite } from '../fixtures/site/serve.ts';
import { startMimo } from '../runtime/app.ts';
import { buildWebAndExtensionIfStale } from './build-if-stale.ts';

const CHROMIUM = process.env.MIMO_CHROMIUM ?? '/usr/bin/chromium';
const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'demo-output');
const TASK_TIMEOUT_MS = Number(process.env.MIMO_DEMO_TASK_TIMEOUT_MS ?? 90_000);

if (!existsSync(CHROMIUM)) {
  console.error(`The demo needs Chromium at ${CHROMIUM}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n(or set MIMO_CHROMIUM to another Chromium/Chrome binary).`);
  process.exit(1);
}

interface TaskOutcome {
  name: string;
  status: string;
  text: string;
  steps: string[];
  screenshots: string[];
  ok: boolean;
}

const log = (line = '') => process.stdout.write(`${line}\n`);

async function runTask(web: Socket, baseUrl: string, token: string, name: string, request: string): Promise<TaskOutcome> {
  const taskId = ((await (await fetch(`${baseUrl}/api/task/id`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { taskId: string } }).data.taskId;
  const messageId = `evt-demo-${Date.now()}`;
  const steps: string[] = [];
  const screenshots: string[] = [];
  let text = '';
  let status = 'created';
  let failed: string | null = null;
  log(`\n=== ${name}\n> ${request}\n`);
  const finished = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, TASK_TIMEOUT_MS);
    let chatDone = false;
    const onEvent = (envelope: { taskId?: string; event: Record<string, any> }) => {
      if (envelope.taskId !== taskId) return;
      const e = envelope.event;
      if (e.type === 'chatDelta' && e.targetEventId === messageId) {
        text += e.delta.content;
        process.stdout.write(e.delta.content);
        if (e.finished) chatDone = true;
      } else if (e.type === 'toolUsed' && e.phase !== 'start') {
        const line = `${e.actionName} ${e.paramsSummary} -> ${e.phase}${e.durationMs !== undefined ? ` (${e.durationMs} ms)` : ''}${e.error ? ` ${e.error.code}: ${e.error.message}` : ''}`;
        steps.push(line);
        for (const artifact of e.artifacts ?? []) if (artifact.kind === 'screenshot') screenshots.push(artifact.artifactId);
      } else if (e.type === 'structuredOutput' && e.status === 'error') {
        failed = `${e.error.code}: ${e.error.message}`;
      } else if (e.type === 'taskStatus') {
        status = e.status;
      }
      if (chatDone && (status === 'ongoing' || status === 'error' || status === 'completed')) {
        clearTimeout(timer);
        web.off('frontend_event', onEvent);
        resolve();
      }
    };
    web.on('frontend_event', onEvent);
  });
  const ack = await web.timeout(10_000).emitWithAck('frontend_message', { v: 1, type: 'user_message', id: messageId, timestamp: Date.now(), taskId, content: request });
  if (!ack.ok) failed = `${ack.error.code}: ${ack.error.message}`;
  else await finished;
  log('\n\nSteps:');
  for (const step of steps) log(`  - ${step}`);
  const saved: string[] = [];
  for (const [i, artifactId] of screenshots.slice(-1).entries()) {
    const res = await fetch(`${baseUrl}/api/artifacts/${artifactId}`);
    if (!res.ok) continue;
    const file = join(outDir, `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i + 1}.png`);
    await writeFile(file, new Uint8Array(await res.arrayBuffer()));
    saved.push(file);
  }
  const ok = !failed && status === 'ongoing' && text.trim().length > 0 && !/could not|cannot|failed/i.test(text);
  log(`Status: ${status}${failed ? `  error ${failed}` : ''}${saved.length ? `  screenshot ${saved.join(', ')}` : ''}`);
  return { name, status, text, steps, screenshots: saved, ok };
}

const work = await mkdtemp(join(tmpdir(), 'mimo-demo-'));
await mkdir(outDir, { recursive: true });
const { extensionDir } = await buildWebAndExtensionIfStale();
const site = await serveFixtureSite();
const policyFile = join(work, 'url-policy.json');
// fixtures/site is served on 127.0.0.1: this demo's policy lifts the loopback block explicitly.
await writeFile(policyFile, JSON.stringify({ open: { allow_private_networks: ['loopback'] } }));
const token = `demo-${Math.random().toString(36).slice(2)}`;
const app = await startMimo(
  {
    ...process.env,
    MIMO_PORT: process.env.MIMO_PORT ?? '0',
    MIMO_DATA_DIR: join(work, 'data'),
    MIMO_ARTIFACT_DIR: join(work, 'artifacts'),
    MIMO_URL_POLICY: policyFile,
    MIMO_TOKEN: token,
  },
  { log: () => {} },
);
const baseUrl = app.server.url;
log(`Mimo demo: server ${baseUrl} (${app.llm.kind === 'offline' ? 'offline planner' : app.llm.model}), fixture site ${site.url}`);

const { launchRealistic } = await import('../extension/test/harness/chromium.ts');
const { configureThroughOptionsPage } = await import('../extension/test/e2e/e2e-util.ts');
const browser = await launchRealistic(extensionDir);
let outcomes: TaskOutcome[] = [];
let web: Socket | undefined;
try {
  const worker =
    browser.context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await browser.context.waitForEvent('serviceworker', { timeout: 20_000 }));
  await configureThroughOptionsPage(browser.context, new URL(worker.url()).host, baseUrl, token);
  const deadline = Date.now() + 20_000;
  while (!app.server.registry.list().some((e) => e.socketConnected)) {
    if (Date.now() > deadline) throw new Error('the extension did not connect to the server');
    await new Promise((r) => setTimeout(r, 100));
  }
  log('Extension connected.');

  web = io(`${baseUrl}/mimo`, { transports: ['websocket'], auth: { clientType: 'frontend', token } });
  await new Promise<void>((resolve, reject) => {
    web!.once('connect', () => resolve());
    web!.once('connect_error', reject);
  });
  outcomes = [
    await runTask(web, baseUrl, token, 'Summarise an article', `Open ${site.url}/article.html and summarise it`),
    await runTask(web, baseUrl, token, 'Extract the product table', `Open ${site.url}/products.html and extract the product names and prices as a table`),
    await runTask(web, baseUrl, token, 'Fill and submit the form', `Open ${site.url}/form.html, type Ada Lovelace into the name field and submit`),
  ];

  // A picture of the web UI for the README: the last task open, at 1280x800.
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${baseUrl}/?token=${token}`);
  await page.locator('text=/^Open .*form/').first().click({ timeout: 5_000 }).catch(() => {});
  await page.waitForTimeout(2_000);
  await page.screenshot({ path: join(outDir, 'web-ui.png') });
  log(`\nWeb UI screenshot: ${join(outDir, 'web-ui.png')}`);
} finally {
  web?.close();
  await browser.close();
  await app.close();
  await site.close();
  await rm(work, { recursive: true, force: true });
}

log('\n=== Summary');
for (const o of outcomes) log(`  ${o.ok ? 'ok  ' : 'FAIL'} ${o.name} (${o.status}, ${o.steps.length} steps)`);
const allOk = outcomes.length === 3 && outcomes.every((o) => o.ok);
log(allOk ? '\nAll three tasks completed.' : '\nThe demo did not complete every task.');
process.exit(allOk ? 0 : 1);
