// `npm test` without Chromium: one line saying how to install it, exit 1, no test run.
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumMissing, needsChromium } from './chromium-check.ts';

const root = new URL('..', import.meta.url).pathname;
const check = suite('test runner: Chromium pre-check');

check('the browser suites are recognised as needing Chromium, the unit suites are not', () => {
  assert.ok(needsChromium(`${root}web/test/e2e/web-ui.test.ts`));
  assert.ok(needsChromium(`${root}extension/test/e2e/takeover.test.ts`));
  assert.not.ok(needsChromium(`${root}web/test/task-list-states.test.ts`));
  assert.is(
    chromiumMissing([`${root}web/test/task-list-states.test.ts`], '/nonexistent/chromium'),
    null,
    'unit suites alone run without Chromium',
  );
});

check('run-tests.ts stops at once with one line when Chromium is missing', () => {
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', 'web/test/'], {
    cwd: root,
    env: { ...process.env, MIMO_CHROMIUM: '/nonexistent/chromium' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.is(run.status, 1);
  const lines = `${run.stdout}${run.stderr}`
    .trim()
    .split('\n')
    .filter((l) => !/^\(node:\d+\)|--trace-warnings/.test(l));
  assert.is(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /apt-get install -y chromium/);
  assert.not.match(run.stdout, /passed|failed/, 'no test file ran');
  assert.ok(Date.now() - started < 30_000);
});

check.run();
