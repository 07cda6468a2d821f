// The access token made on first start (runtime/access-token.ts, startMimo): created once with
// mode 0600 and reused; a file readable by others is narrowed; a damaged file stops the start
// with a clear message; MIMO_TOKEN and MIMO_TOKEN=off win; bad MIMO_TOKEN values are refused.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ACCESS_TOKEN_FILE, loadOrCreateAccessToken, oneClickUrl } from '../access-token.ts';
import { startMimo, StartupError } from '../app.ts';
import { readConfig } from '../config.ts';

const test = suite<{ dir: string }>('access token', { dir: '' });
test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mimo-token-'));
});
test.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

test('made once (0600), then reused', async ({ dir }) => {
  const first = await loadOrCreateAccessToken(join(dir, 'data'));
  assert.ok(first.created);
  assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
  assert.is(statSync(first.path).mode & 0o777, 0o600);
  const second = await loadOrCreateAccessToken(join(dir, 'data'));
  assert.equal([second.created, second.token], [false, first.token]);
});

test('a file readable by others is narrowed to 0600; a damaged one is an error, not replaced', async ({ dir }) => {
  const data = join(dir, 'data');
  mkdirSync(data);
  writeFileSync(join(data, ACCESS_TOKEN_FILE), 'abcdefghijklmnopqrstuvwxyz012345\n');
  chmodSync(join(data, ACCESS_TOKEN_FILE), 0o644);
  const loaded = await loadOrCreateAccessToken(data);
  assert.equal([loaded.token, loaded.fixedMode], ['abcdefghijklmnopqrstuvwxyz012345', '644']);
  assert.is(statSync(loaded.path).mode & 0o777, 0o600);
  writeFileSync(join(data, ACCESS_TOKEN_FILE), 'short');
  try {
    await startMimo({ MIMO_PORT: '0', MIMO_DATA_DIR: data, MIMO_ARTIFACT_DIR: join(dir, 'a') }, { log: () => {} });
    assert.unreachable('a damaged token file must stop the start');
  } catch (error) {
    assert.instance(error, StartupError);
    assert.match((error as Error).message, /access-token does not hold a token/);
  }
});

test('MIMO_TOKEN: a value wins, "off" turns it off with a warning, bad values are refused', async ({ dir }) => {
  const env = { MIMO_PORT: '0', MIMO_DATA_DIR: join(dir, 'data'), MIMO_ARTIFACT_DIR: join(dir, 'a') };
  const own = await startMimo({ ...env, MIMO_TOKEN: 'my-own-token-123' }, { log: () => {} });
  assert.equal([own.config.token, own.access.mode], ['my-own-token-123', 'env']);
  await own.close();
  const off = await startMimo({ ...env, MIMO_TOKEN: 'off' }, { log: () => {} });
  assert.is(off.config.token, undefined);
  assert.ok(off.access.mode === 'off' && /no token is required/.test(off.access.warning));
  await off.close();
  for (const bad of ['short', 'has space in it', 'x'.repeat(513)])
    assert.is(readConfig({ MIMO_TOKEN: bad }).ok, false, bad);
  assert.is(readConfig({ MIMO_CORS_ORIGIN: '*' }).ok, false);
  assert.is(readConfig({ MIMO_ALLOWED_HOSTS: 'evil.example@localhost' }).ok, false);
  assert.is(readConfig({ MIMO_EXTENSION_IDS: 'not-an-id' }).ok, false);
});

test('the one-click URL', () => {
  assert.is(oneClickUrl('http://localhost:6006', 'abc-_123'), 'http://localhost:6006/?token=abc-_123');
});

test.run();
