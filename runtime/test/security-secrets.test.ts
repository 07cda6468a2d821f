// Text typed into a password field reaches the page and nothing else: not the session recording,
// not the logs, not the tool step's params summary (issue 12). Through the real MCP SDK client,
// browser-shell `fill`, the fake plugin and a recorder wired the way startMimo wires it.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startMcp, testPolicy } from '../mcp/test/mcp-harness.ts';
import { createSessionRecorder } from '../recorder/session-recorder.ts';
import { createSecretRegistry, redactDeep } from '../redaction/redact.ts';

const LOGIN = 'http://login.test/';
const PASSWORD = 'S3cret-Passw0rd!';

test('a password typed through browser-shell is redacted in recordings, logs and the steps; the page still gets it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mimo-secrets-'));
  const secrets = createSecretRegistry();
  const recorder = createSessionRecorder({
    dir,
    clock: { now: () => Date.now() },
    redact: (e) => redactDeep(e, { secrets, maxDepth: 64 }) as typeof e,
  });
  const h = await startMcp({
    pages: {
      [LOGIN]: {
        title: 'Sign in',
        text: 'sign in',
        elements: [
          { tag: 'input', type: 'text', name: 'user' },
          { tag: 'input', type: 'password', name: 'pw' },
        ],
      },
    },
    policy: testPolicy({ allow_hosts: ['login.test'] }),
    server: { recorder, secrets },
    // Typing a password is a consequential step (issue 23): this MCP client is opted in.
    routes: { consequentialSteps: 'allow' },
  });
  const steps: string[] = [];
  try {
    await h.shell('login', ['open', LOGIN]);
    const snap = await h.shell('login', ['snapshot', '-i']);
    const refs = snap.data.refs as Record<string, { type?: string }>;
    const user = Object.keys(refs).find((k) => refs[k]!.type === 'text')!;
    const pw = Object.keys(refs).find((k) => refs[k]!.type === 'password')!;
    const originalToTask = h.runtime.server.events.toTask.bind(h.runtime.server.events);
    h.runtime.server.events.toTask = ((taskId: string, event: { type: string; paramsSummary?: string }) => {
      if (event.type === 'toolUsed' && event.paramsSummary) steps.push(event.paramsSummary);
      return originalToTask(taskId, event as never);
    }) as typeof h.runtime.server.events.toTask;
    assert.is((await h.shell('login', ['fill', `@${user}`, 'ada'])).exit_code, 0);
    assert.is((await h.shell('login', ['fill', `@${pw}`, PASSWORD])).exit_code, 0);
    assert.ok(
      h.browser.typed.some((t) => t.text === PASSWORD),
      'the page got the password',
    );
  } finally {
    await h.close();
    await recorder.close();
  }
  const recorded = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  assert.match(recorded, /browser_type/, 'the typing was recorded');
  assert.match(recorded, /"text":"ada"/, 'ordinary text stays readable');
  assert.not.match(recorded, new RegExp(PASSWORD.replace(/[!]/g, '\\!')));
  assert.not.match(JSON.stringify(h.runtime.logs), /S3cret/);
  assert.ok(
    steps.some((s) => s.includes('text="[redacted]"')),
    JSON.stringify(steps),
  );
  assert.not.match(steps.join('\n'), /S3cret/);
  rmSync(dir, { recursive: true, force: true });
});

test.run();
