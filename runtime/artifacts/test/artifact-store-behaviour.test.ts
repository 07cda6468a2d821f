// The artifact service's behaviour over both ArtifactStores: the folder store (the default) and
// the PostgreSQL one of cluster mode (on a throwaway server, runtime/test-util/postgres-server.ts).
// The same cases run against each; the PostgreSQL section then adds what only a shared store can
// show: several services (nodes) on one database, single use across them, a sweep that removes
// each artifact once, and an upload claim left by a dead node.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startPostgres } from '../../test-util/postgres-server.ts';
import { migrate } from '../../store/postgres-migrations.ts';
import { ARTIFACT_CHUNK_BYTES, createPostgresArtifactStore } from '../../store/postgres-artifact-store.ts';
import { createFolderArtifactStore } from '../artifact-folder-store.ts';
import { createArtifactService } from '../artifact-service.ts';
import type { ArtifactStore } from '../artifact-store.ts';
import type { ArtifactMeta, ArtifactService } from '../artifact-types.ts';
import { BASE, chunks, createFakeScheduler, manualBody, readAll, rejection, SECRET, T0, tokenOf } from './util.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

const MAX = 1024 * 1024;
const HOUR = 3_600_000;
const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 3) % 251);

interface Ctx {
  clock: TestClock;
  store: ArtifactStore;
  service: ArtifactService;
  /** Another service on the same store (another node in cluster mode), same clock and secret. */
  another(): ArtifactService;
  done(): Promise<void>;
}

type Factory = () => Promise<{ store: () => ArtifactStore; done(): Promise<void> }>;

function serviceOn(store: ArtifactStore, clock: TestClock): ArtifactService {
  return createArtifactService({
    dir: '/nonexistent-unused',
    store,
    secret: SECRET,
    clock,
    publicBaseUrl: BASE,
    scheduler: createFakeScheduler(),
    maxUploadBytes: MAX,
  });
}

function defineBehaviour(name: string, factory: Factory) {
  const s = suite<{ c: Ctx }>(`artifact service behaviour: ${name} store`);
  s.before.each(async (ctx) => {
    const made = await factory();
    const clock = createTestClock(T0);
    const store = made.store();
    ctx.c = {
      clock,
      store,
      service: serviceOn(store, clock),
      another: () => serviceOn(made.store(), clock),
      done: made.done,
    };
  });
  s.after.each(async (ctx) => ctx.c.done());

  const presign = async (service: ArtifactService) => {
    const p = await service.presign({ taskId: 'task-1', kind: 'screenshot', contentType: 'image/png' });
    return { ...p, token: tokenOf(p.uploadUrl) };
  };

  s('an upload of several chunks comes back whole from stream() and from read() across chunk edges', async ({ c }) => {
    const data = bytes(600_000, 13);
    const p = await presign(c.service);
    const stored = await c.service.acceptUpload(p.artifactId, p.token, chunks(data, 10_007), {
      contentLength: data.length,
      contentType: 'image/png',
    });
    assert.is(stored.size, data.length);
    const opened = await c.service.open(p.artifactId);
    assert.equal(
      [opened.size, opened.taskId, opened.kind, opened.contentType, opened.createdAt],
      [data.length, 'task-1', 'screenshot', 'image/png', T0],
    );
    assert.equal(await readAll(opened.stream()), Buffer.from(data));
    const edge = ARTIFACT_CHUNK_BYTES - 100;
    assert.equal(Buffer.from(await opened.read(edge, 300)), Buffer.from(data.subarray(edge, edge + 300)));
    assert.equal(
      Buffer.from(await opened.read(data.length - 10, 100)),
      Buffer.from(data.subarray(data.length - 10)),
      'short at the end',
    );
    assert.is((await opened.read(data.length, 10)).length, 0);
  });

  s('the upload URL is single-use: a second upload is refused, a concurrent one too', async ({ c }) => {
    const p = await presign(c.service);
    const body = manualBody();
    const first = c.service.acceptUpload(p.artifactId, p.token, body);
    await body.reads(1);
    const concurrent = await rejection(c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(10))));
    assert.is(concurrent.reason, 'upload_in_progress');
    body.push(bytes(10));
    body.end();
    await first;
    const again = await rejection(c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(10))));
    assert.equal([again.code, again.reason], ['CONFLICT', 'already_uploaded']);
    assert.equal(
      await readAll((await c.service.open(p.artifactId)).stream()),
      Buffer.from(bytes(10)),
      'the first upload stays',
    );
  });

  s('a failed upload changes nothing: the artifact stays pending and the same URL works again', async ({ c }) => {
    const p = await presign(c.service);
    const tooBig = await rejection(c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(MAX + 1), 64 * 1024)));
    assert.equal([tooBig.reason, tooBig.status], ['too_large', 413]);
    assert.is((await rejection(c.service.open(p.artifactId))).reason, 'pending');
    const wrongType = await rejection(
      c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(5)), { contentType: 'text/html' }),
    );
    assert.is(wrongType.reason, 'content_type_mismatch');
    const stored = await c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(300_000)));
    assert.is(stored.size, 300_000);
    assert.equal(await readAll((await c.service.open(p.artifactId)).stream()), Buffer.from(bytes(300_000)));
  });

  s('bad tokens and unknown ids are refused with their codes', async ({ c }) => {
    const p = await presign(c.service);
    assert.is(
      (await rejection(c.service.acceptUpload(p.artifactId, 'nope', chunks(bytes(3))))).reason,
      'invalid_token',
    );
    assert.is((await rejection(c.service.open('art-aaaaaaaaaaaaaaaaaaaaa'))).reason, 'not_found');
    assert.is((await rejection(c.service.open('../etc/passwd'))).reason, 'invalid_id');
    c.clock.increment(15 * 60_000);
    assert.is(
      (await rejection(c.service.acceptUpload(p.artifactId, p.token, chunks(bytes(3))))).reason,
      'token_expired',
    );
  });

  s(
    'putArtifact stores bytes at once; expiry answers 410 and the sweep removes expired artifacts (an abandoned presign left nothing)',
    async ({ c }) => {
      const put = await c.service.putArtifact({
        taskId: 'run-1',
        kind: 'log',
        contentType: 'text/plain',
        bytes: 'x'.repeat(300_000),
      });
      const opened = await c.service.open(put.artifactId);
      assert.equal([opened.size, Buffer.from(await opened.read(299_998, 5)).toString()], [300_000, 'xx']);
      const abandoned = await presign(c.service);
      assert.equal((await c.service.sweep()).removed, [], 'nothing is due yet');
      c.clock.increment(15 * 60_000);
      assert.equal((await c.service.sweep()).removed, [], 'a presign never uploaded recorded nothing');
      assert.is((await rejection(c.service.open(abandoned.artifactId))).reason, 'not_found');
      c.clock.increment(24 * HOUR);
      const expired = await rejection(c.service.open(put.artifactId));
      assert.equal([expired.reason, expired.status], ['expired', 410]);
      assert.equal((await c.service.sweep()).removed, [put.artifactId]);
      assert.is((await rejection(c.service.open(put.artifactId))).reason, 'not_found');
    },
  );

  s('another service on the same store serves what the first stored', async ({ c }) => {
    const p = await presign(c.service);
    const b = c.another();
    await b.acceptUpload(p.artifactId, p.token, chunks(bytes(1000)));
    assert.equal(await readAll((await c.another().open(p.artifactId)).stream()), Buffer.from(bytes(1000)));
  });

  return s;
}

// Folder store: each case a fresh folder. Both suites run at the end of the file: a suite run
// before the top-level await below started uvu while the PostgreSQL suite was still being defined
// (uvu then ran that suite twice over, overlapping, and its after hook ended the pools twice).
const folderSuite = defineBehaviour('folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'mimo-artifact-store-'));
  const store = createFolderArtifactStore(join(root, 'artifacts'));
  return { store: () => store, done: () => rm(root, { recursive: true, force: true }) };
});

// PostgreSQL store: each case a fresh schema, migrated like a cluster node does.
const server = await startPostgres();
const databaseUrl = await server.createDatabase();
const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
admin.on('error', () => undefined);
let schemas = 0;
const pools: pg.Pool[] = [];
async function freshPool(): Promise<{ pool: pg.Pool; another(): pg.Pool }> {
  const schema = `a${schemas++}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const make = () => {
    const p = new pg.Pool({ connectionString: databaseUrl, max: 4, options: `-c search_path=${schema}` });
    p.on('error', () => undefined);
    pools.push(p);
    return p;
  };
  const pool = make();
  await migrate(pool);
  return { pool, another: make };
}

const pgSuite = defineBehaviour('postgres', async () => {
  const { pool, another } = await freshPool();
  let first = true;
  return {
    // The first store is on the migrated pool; others on pools of their own, like other nodes.
    store: () => createPostgresArtifactStore({ pool: first ? ((first = false), pool) : another() }),
    done: async () => undefined,
  };
});

pgSuite('postgres: the bytes live in 256 KiB chunk rows (no row holds a whole large artifact)', async ({ c }) => {
  const p = await c.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  await c.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(700_000), 3000));
  const { pool } = await freshPool(); // any pool of this server sees the schema by name
  const schema = `a${schemas - 2}`;
  const rows = await pool.query<{ seq: number; n: number }>(
    `SELECT seq, octet_length(bytes) AS n FROM ${schema}.mimo_artifact_chunks WHERE artifact_id = $1 ORDER BY seq`,
    [p.artifactId],
  );
  assert.equal(
    rows.rows.map((r) => r.n),
    [ARTIFACT_CHUNK_BYTES, ARTIFACT_CHUNK_BYTES, 700_000 - 2 * ARTIFACT_CHUNK_BYTES],
  );
});

pgSuite('postgres: one token, three nodes racing: exactly one upload lands, the others are refused', async ({ c }) => {
  const p = await c.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
  const token = tokenOf(p.uploadUrl);
  const nodes = [c.another(), c.another(), c.another()];
  const results = await Promise.allSettled(
    nodes.map((n, i) => n.acceptUpload(p.artifactId, token, chunks(bytes(50_000, 3 + i)))),
  );
  const landed = results.filter((r) => r.status === 'fulfilled');
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { reason: string }).reason] : []));
  assert.is(landed.length, 1, JSON.stringify(refused));
  for (const reason of refused) assert.ok(reason === 'upload_in_progress' || reason === 'already_uploaded', reason);
  const winner = results.findIndex((r) => r.status === 'fulfilled');
  assert.equal(await readAll((await c.service.open(p.artifactId)).stream()), Buffer.from(bytes(50_000, 3 + winner)));
});

pgSuite('postgres: sweeps on several nodes at once remove each expired artifact exactly once', async ({ c }) => {
  const ids: string[] = [];
  for (let i = 0; i < 12; i++)
    ids.push(
      (await c.service.putArtifact({ taskId: 't', kind: 'log', contentType: 'text/plain', bytes: `log ${i}` }))
        .artifactId,
    );
  c.clock.increment(24 * HOUR);
  const results = await Promise.all([c.another(), c.another(), c.another()].map((n) => n.sweep()));
  const all = results.flatMap((r) => r.removed);
  assert.equal([...all].sort(), [...ids].sort(), 'every one removed, none twice');
});

pgSuite(
  'postgres: an upload claim left by a dead node is taken over once stale; the dead claim cannot commit',
  async ({ c }) => {
    const p = await c.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
    const deadStore = c.store;
    // The artifact as its token describes it (a presign records nothing; the claim records it).
    const pending: ArtifactMeta = {
      version: 1,
      artifactId: p.artifactId,
      taskId: 't',
      kind: 'screenshot',
      contentType: 'image/png',
      createdAt: c.clock.now(),
      state: 'pending',
      uploadExpiresAt: p.expiresAt,
      expiresAt: p.expiresAt,
    };
    const claim = await deadStore.claimUpload(pending, c.clock.now());
    assert.ok(claim.ok);
    if (!claim.ok) return;
    await claim.sink.write(bytes(300_000, 5)); // one chunk written, then the node "dies"
    const early = await rejection(c.another().acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(10))));
    assert.is(early.reason, 'upload_in_progress');
    c.clock.increment(5 * 60_000); // the claim is stale (the upload URL itself is valid for 15 min)
    await c.another().acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(400_000, 9)));
    const meta = await deadStore.readMeta(p.artifactId);
    await claim.sink.commit({ ...(meta as ArtifactMeta), size: 300_000 }).then(
      () => assert.unreachable('the stale claim committed'),
      (error: Error) => assert.match(error.message, /claim .* was lost/),
    );
    assert.equal(
      await readAll((await c.service.open(p.artifactId)).stream()),
      Buffer.from(bytes(400_000, 9)),
      'the new upload is what is served',
    );
  },
);

pgSuite(
  'postgres: an upload that failed leaves a pending row (its URL still works); the sweep removes it once the URL expires',
  async ({ c }) => {
    const p = await c.service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
    const failed = await rejection(
      c.service.acceptUpload(p.artifactId, tokenOf(p.uploadUrl), chunks(bytes(10)), { contentLength: 11 }),
    );
    assert.is(failed.reason, 'length_mismatch');
    assert.is(((await c.store.readMeta(p.artifactId)) as ArtifactMeta).state, 'pending');
    assert.is((await rejection(c.another().open(p.artifactId))).reason, 'pending', 'every node sees the pending row');
    c.clock.increment(15 * 60_000);
    assert.equal((await c.service.sweep()).removed, [p.artifactId]);
    assert.is(await c.store.readMeta(p.artifactId), null);
  },
);

pgSuite.after(async () => {
  for (const p of pools) await p.end().catch(() => undefined);
  await admin.end();
  await server.stop();
});
folderSuite.run();
pgSuite.run();
