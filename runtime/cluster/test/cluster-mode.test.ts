// Cluster mode through startMimo: two nodes on one PostgreSQL (MIMO_DATABASE_URL). A task asked
// on node A streams its events to a web client on node B too, in the same order, and node B
// serves its history over HTTP. Without the variable the node stays in embedded mode.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMimo, StartupError, type MimoApp } from '../../app.ts';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { say, scriptedLlm } from '../../test/scripted-llm.ts';
import { connectWeb, eventually } from '../../test/util.ts';
import { readClusterConfig } from '../cluster-mode.ts';

const TASK = '01JD0000000000000000000C01';
const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const dir = mkdtempSync(join(tmpdir(), 'mimo-cluster-'));

function envFor(name: string): Record<string, string> {
  return {
    MIMO_DATABASE_URL: databaseUrl,
    MIMO_NODE_ID: name,
    MIMO_PORT: '0',
    MIMO_DATA_DIR: join(dir, name),
    MIMO_ARTIFACT_DIR: join(dir, 'artifacts'),
  };
}

let token = '';
const auth = () => ({ Authorization: `Bearer ${token}` });
const test = suite<{ nodes: MimoApp[] }>('cluster mode: two nodes, one PostgreSQL', { nodes: [] });

test.after(async (ctx) => {
  for (const node of ctx.nodes) await node.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('MIMO_DATABASE_URL is checked: a bad value stops the start with a clear error', async () => {
  assert.equal(readClusterConfig({}), { ok: true, config: null });
  const bad = readClusterConfig({ MIMO_DATABASE_URL: 'mysql://x@y/z', MIMO_DATABASE_POOL_SIZE: '1' });
  assert.is(bad.ok, false);
  assert.match(String(!bad.ok && bad.errors.join('\n')), /postgres:\/\//);
  assert.match(String(!bad.ok && bad.errors.join('\n')), /MIMO_DATABASE_POOL_SIZE/);
  const error = await startMimo({ ...envFor('bad'), MIMO_DATABASE_URL: 'not a url' }, { log: () => {} }).catch(
    (e) => e,
  );
  assert.instance(error, StartupError);
});

test('a task asked on node A: a web client on node B sees every event in order, and B serves the history', async (ctx) => {
  const a = await startMimo(envFor('node-a'), {
    log: () => {},
    llm: scriptedLlm([() => say('Hello ', 'from node A.'), () => say('Second answer, also from A.')]),
  });
  ctx.nodes.push(a);
  const b = await startMimo(envFor('node-b'), { log: () => {}, llm: scriptedLlm([]) });
  ctx.nodes.push(b);
  assert.ok(a.cluster && b.cluster);
  // No MIMO_TOKEN: the first node made one and both use it (kept in PostgreSQL, not per data dir).
  assert.ok(a.config.token);
  assert.is(a.config.token, b.config.token);
  // The start banner must not claim MIMO_TOKEN: the token is the cluster's, kept in PostgreSQL.
  assert.equal([a.access.mode, b.access.mode], ['cluster', 'cluster']);
  token = a.config.token!;
  // Both adapters have heard of each other (heartbeats over NOTIFY) before the task starts.
  await eventually(
    async () => (await a.server.nsp.adapter!.serverCount()) === 2 && (await b.server.nsp.adapter!.serverCount()) === 2,
    10_000,
    'nodes meshed',
  );

  const webA = await connectWeb(a.server.url, { token });
  const webB = await connectWeb(b.server.url, { token });
  assert.equal(
    await webB.timeout(5000).emitWithAck('frontend_message', {
      v: 1,
      type: 'subscribe_task',
      id: 'evt-sub',
      timestamp: Date.now(),
      taskId: TASK,
    }),
    { ok: true },
  );
  const ack = await webA.timeout(5000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-hello',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'Say hello',
  });
  assert.is(ack.ok, true);
  const finished = (events: any[]) => events.some((e) => e.event?.type === 'chatDelta' && e.event.finished);
  await eventually(() => finished(webA.events) && finished(webB.events), 10_000, 'the turn to finish on both nodes');
  await eventually(
    () => webB.events.filter((e) => e.taskId === TASK).length === webA.events.filter((e) => e.taskId === TASK).length,
    5_000,
    'B to catch up',
  );
  const ofTask = (events: any[]) => events.filter((e) => e.taskId === TASK);
  assert.ok(ofTask(webA.events).length >= 3);
  assert.equal(ofTask(webB.events), ofTask(webA.events));
  const text = ofTask(webB.events)
    .filter((e) => e.event.type === 'chatDelta')
    .map((e) => e.event.delta?.content ?? '')
    .join('');
  assert.is(text, 'Hello from node A.');

  await eventually(
    async () => {
      const body = (await (await fetch(`${b.server.url}/api/task/${TASK}`, { headers: auth() })).json()) as any;
      return body.data?.messages?.length === 2;
    },
    5_000,
    'the assistant message to be stored',
  );
  const body = (await (await fetch(`${b.server.url}/api/task/${TASK}`, { headers: auth() })).json()) as any;
  assert.equal(
    body.data.messages.map((m: any) => [m.role, m.content]),
    [
      ['user', 'Say hello'],
      ['assistant', 'Hello from node A.'],
    ],
  );
  webA.close();
  webB.close();
});

test('a follow-up sent to node B for a task node A owns is forwarded to A and runs there', async (ctx) => {
  const [a, b] = ctx.nodes as [MimoApp, MimoApp];
  const bLlm = (b.llm as unknown as { calls: unknown[] }).calls;
  const webB = await connectWeb(b.server.url, { token });
  const ack = await webB.timeout(15_000).emitWithAck('frontend_message', {
    v: 1,
    type: 'user_message',
    id: 'evt-follow-up',
    timestamp: Date.now(),
    taskId: TASK,
    content: 'And again?',
  });
  assert.is(ack.ok, true, JSON.stringify(ack));
  const text = () =>
    webB.events
      .filter((e) => e.taskId === TASK && e.event.type === 'chatDelta')
      .map((e) => e.event.delta?.content ?? '')
      .join('');
  await eventually(() => text() === 'Second answer, also from A.', 10_000, 'the answer from A on B');
  assert.is(bLlm.length, 0, 'node B ran no turn');
  assert.is((a.llm as unknown as { calls: unknown[] }).calls.length, 2);
  assert.is(a.cluster!.ownership()!.owns(TASK), true);
  webB.close();
});

test('artifacts in PostgreSQL: presigned on A, uploaded through B, downloaded from C; the token cannot be used twice on any node', async (ctx) => {
  const [a, b] = ctx.nodes as [MimoApp, MimoApp];
  // Node C has an artifact folder of its own: nothing is shared but the database.
  const c = await startMimo(
    { ...envFor('node-c'), MIMO_ARTIFACT_DIR: join(dir, 'node-c-artifacts') },
    { log: () => {}, llm: scriptedLlm([]) },
  );
  ctx.nodes.push(c);
  assert.ok(a.config.artifactSecret);
  assert.is(a.config.artifactSecret, c.config.artifactSecret);
  const presigned = (await (
    await fetch(`${a.server.url}/api/artifacts/presign`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth() },
      body: JSON.stringify({ taskId: TASK, kind: 'screenshot', contentType: 'image/png' }),
    })
  ).json()) as any;
  const upload = new URL(presigned.data.uploadUrl);
  const bytes = Uint8Array.from({ length: 600_000 }, (_, i) => (i * 31 + 7) % 256); // three chunk rows
  const put = await fetch(`${b.server.url}${upload.pathname}${upload.search}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: bytes,
  });
  assert.is(put.status, 200, await put.clone().text());
  const got = await fetch(`${c.server.url}${new URL(presigned.data.downloadUrl).pathname}`, { headers: auth() });
  assert.is(got.status, 200);
  assert.equal(new Uint8Array(await got.arrayBuffer()), bytes);
  for (const node of [c, b, a]) {
    const again = await fetch(`${node.server.url}${upload.pathname}${upload.search}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/png' },
      body: new Uint8Array([1, 2, 3]),
    });
    assert.is(again.status, 409, node.config.port.toString());
    assert.is(((await again.json()) as any).error.details.reason, 'already_uploaded');
  }
  const still = await fetch(`${a.server.url}${new URL(presigned.data.downloadUrl).pathname}`, { headers: auth() });
  assert.equal(new Uint8Array(await still.arrayBuffer()), bytes, 'the first upload stays');
  // No node wrote a file: the bytes are in PostgreSQL only.
  for (const folder of ['artifacts', 'node-c-artifacts'])
    assert.not.ok(existsSync(join(dir, folder, presigned.data.artifactId)), folder);
});

test.run();
