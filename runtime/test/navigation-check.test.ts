// navigation_check over the real transport (socket.io-client as the plugin, createServer with the
// real URL policy): the verdict comes back in the ack, a blocked one is told to the task's room
// (structuredOutput URL_BLOCKED), the log and onNavigationBlocked; no policy = allowed; a check
// that throws blocks; malformed checks are refused in the ack.
import { suite } from 'uvu';
import { ulid } from 'ulid';
import * as v from 'valibot';
import { NavigationVerdictSchema, SocketAckSchema } from '../../transport/contracts/index.ts';
import * as assert from 'uvu/assert';
import { createUrlPolicy, parseUrlPolicyConfig } from '../url-policy/index.ts';
import type { NavigationBlockedReport } from '../socket/navigation-check.ts';
import { startFakePlugin } from '../test-util/fake-plugin.ts';
import { connectWeb, eventually, startRuntime, type TestRuntime } from './util.ts';

const TASK = ulid();
const check = (url: string, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'navigation_check',
  id: `nav-${Math.random().toString(36).slice(2)}`,
  taskId: TASK,
  clientId: 'plugin-nav',
  tabId: 7,
  url,
  frame: 'main',
  stage: 'request',
  timestamp: Date.now(),
  ...extra,
});

const s = suite('navigation_check (plugin gateway)');

async function withRuntime(
  options: Parameters<typeof startRuntime>[0],
  run: (runtime: TestRuntime) => Promise<void>,
): Promise<void> {
  const runtime = await startRuntime(options);
  try {
    await run(runtime);
  } finally {
    await runtime.close();
  }
}

s('the URL policy answers in the ack; a block reaches the task room, the log and the hook', async () => {
  const parsed = parseUrlPolicyConfig({ open: { allow_hosts: ['example.com'] } });
  if (!parsed.ok) throw new Error(parsed.errors.join());
  const policy = createUrlPolicy({
    config: parsed.config,
    resolve: async () => [{ address: '93.184.215.14', family: 4 }],
  });
  const reports: NavigationBlockedReport[] = [];
  await withRuntime(
    { checkNavigation: (url) => policy.check(url), onNavigationBlocked: (r) => reports.push(r) },
    async (runtime) => {
      const plugin = await startFakePlugin({ url: runtime.server.url, clientId: 'plugin-nav', register: false });
      const web = await connectWeb(runtime.server.url);
      try {
        // The web client follows the task's room.
        const joined = (await web.timeout(5_000).emitWithAck('frontend_message', {
          v: 1,
          type: 'subscribe_task',
          id: `evt-${ulid()}`,
          timestamp: Date.now(),
          taskId: TASK,
        })) as any;
        assert.is(joined.ok, true, JSON.stringify(joined));
        assert.equal(await plugin.send(check('https://example.com/a')), { ok: true, data: { allowed: true } });
        const blocked = (await plugin.send(check('https://evil.example/'))) as any;
        assert.ok(v.safeParse(SocketAckSchema, blocked).success, 'the ack has the one SocketAck shape');
        assert.ok(v.safeParse(NavigationVerdictSchema, blocked.data).success);
        assert.is(blocked.ok, true);
        assert.is(blocked.data.allowed, false);
        assert.is(blocked.data.error.code, 'URL_BLOCKED');
        assert.is(blocked.data.error.details.reason, 'not_allowlisted');
        assert.is(blocked.data.error.details.url, 'https://evil.example/');
        const scheme = (await plugin.send(check('file:///etc/passwd', { stage: 'redirect' }))) as any;
        assert.equal([scheme.data.allowed, scheme.data.error.details.reason], [false, 'scheme']);
        await eventually(() => reports.length === 2, 2_000, 'two reports');
        assert.equal(
          reports.map((r) => [r.taskId, r.tabId, r.stage, r.clientId]),
          [
            [TASK, 7, 'request', 'plugin-nav'],
            [TASK, 7, 'redirect', 'plugin-nav'],
          ],
        );
        assert.ok(runtime.logs.some((e) => e.event === 'navigation_blocked' && e.taskId === TASK));
        await eventually(
          () => web.events.filter((e) => e.taskId === TASK && e.event.type === 'structuredOutput').length === 2,
          2_000,
          'two task events',
        );
        const event = web.events.find((e) => e.taskId === TASK && e.event.type === 'structuredOutput').event;
        assert.equal([event.status, event.error.code], ['error', 'URL_BLOCKED']);
        assert.match(event.message, /did not load https:\/\/evil\.example\//);
        // Malformed: refused in the ack, nothing reported.
        const bad = (await plugin.send({ ...check('https://evil.example/'), frame: 'top' })) as any;
        assert.equal([bad.ok, bad.error.code], [false, 'SCHEMA_VALIDATION_FAILED']);
        const spoofed = (await plugin.send({ ...check('https://evil.example/'), clientId: 'someone-else' })) as any;
        assert.equal([spoofed.ok, spoofed.error.code], [false, 'FORBIDDEN']);
        assert.is(reports.length, 2);
      } finally {
        web.close();
        plugin.close();
      }
    },
  );
});

s('no policy configured: allowed; a policy that throws: blocked (fail closed)', async () => {
  await withRuntime({}, async (runtime) => {
    const plugin = await startFakePlugin({ url: runtime.server.url, clientId: 'plugin-nav', register: false });
    try {
      assert.equal(await plugin.send(check('http://10.0.0.1/')), { ok: true, data: { allowed: true } });
    } finally {
      plugin.close();
    }
  });
  await withRuntime(
    { checkNavigation: async () => Promise.reject(new Error('resolver exploded')) },
    async (runtime) => {
      const plugin = await startFakePlugin({ url: runtime.server.url, clientId: 'plugin-nav', register: false });
      try {
        const answer = (await plugin.send(check('https://example.com/'))) as any;
        assert.equal([answer.ok, answer.data.allowed, answer.data.error.code], [true, false, 'URL_BLOCKED']);
        assert.match(answer.data.error.message, /resolver exploded/);
      } finally {
        plugin.close();
      }
    },
  );
});

s.run();
