// Artifacts in cluster mode (PostgreSQL store: 256 KiB bytea chunks) beside the folder store, in
// the same run: a 25 MB upload streamed in 64 KiB pieces, then read back by stream(), through the
// real ArtifactService. Figures: MB/s each way (timed passes), and, in separate passes, the peak
// growth of the live memory (heap + array buffers, measured after a forced GC every 10 ms) while
// it happens, next to the folder store's, which holds no artifact in memory (it writes each
// piece to its file as it comes). Read the upload figure as a ratio: during a fast upload V8
// frees the backing stores of the dead 64 KiB pieces lazily, so `arrayBuffers` climbs for
// both stores alike (measured: ~+25 MB for each on 25 MB); the PostgreSQL store's own buffer is
// one chunk (256 KiB) plus the chunk in flight.
import { mkdtemp, rm } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createArtifactService } from '../../runtime/artifacts/artifact-service.ts';
import { createFolderArtifactStore } from '../../runtime/artifacts/artifact-folder-store.ts';
import type { ArtifactStore } from '../../runtime/artifacts/artifact-store.ts';
import { createNodeScheduler } from '../../runtime/artifacts/scheduler.ts';
import { createPostgresArtifactStore } from '../../runtime/store/postgres-artifact-store.ts';
import { migrate } from '../../runtime/store/postgres-migrations.ts';
import { startPostgres } from '../../runtime/test-util/postgres-server.ts';

const SIZE = 25 * 1024 * 1024;
const PIECE = 64 * 1024;

interface Row {
  name: string;
  uploadMs: number[];
  downloadMs: number[];
  uploadPeakMb: number;
  downloadPeakMb: number;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Live memory growth: a full GC before each look, so garbage does not count. V8 frees the
 * backing stores of dead ArrayBuffers on a background thread after the GC, so each look waits
 * for that (a few event-loop turns) before it reads `arrayBuffers`.
 */
function sampler() {
  const settle = async () => {
    gc();
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 1));
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  let base = Number.POSITIVE_INFINITY;
  let peak = 0;
  let looking = false;
  const ready = settle().then((b) => (base = b));
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void settle().then((u) => {
      peak = Math.max(peak, u);
      looking = false;
    });
  }, 10);
  return {
    ready,
    async stop() {
      clearInterval(timer);
      return Math.max(0, (peak - base) / 1024 / 1024);
    },
  };
}

async function* body(): AsyncGenerator<Uint8Array> {
  const piece = new Uint8Array(PIECE).map((_, i) => i % 251);
  for (let sent = 0; sent < SIZE; sent += PIECE) yield piece.slice(); // a fresh buffer per piece, like a socket
}

async function measure(name: string, store: ArtifactStore, reps: number): Promise<Row> {
  const service = createArtifactService({
    dir: '/nonexistent',
    store,
    secret: 'bench-secret-0123456789abcdef',
    clock: { now: () => Date.now() } as never,
    publicBaseUrl: 'http://localhost:1',
    scheduler: createNodeScheduler(),
  });
  const row: Row = { name, uploadMs: [], downloadMs: [], uploadPeakMb: 0, downloadPeakMb: 0 };
  const once = async (watch: boolean) => {
    const p = await service.presign({ taskId: 'bench', kind: 'screenshot', contentType: 'image/png' });
    let watcher = watch ? sampler() : undefined;
    await watcher?.ready;
    let t = performance.now();
    await service.acceptUpload(p.artifactId, new URL(p.uploadUrl).searchParams.get('token'), body());
    if (!watch) row.uploadMs.push(performance.now() - t);
    if (watcher) row.uploadPeakMb = Math.max(row.uploadPeakMb, await watcher.stop());
    watcher = watch ? sampler() : undefined;
    await watcher?.ready;
    t = performance.now();
    let got = 0;
    for await (const part of (await service.open(p.artifactId)).stream() as unknown as AsyncIterable<Uint8Array>)
      got += part.byteLength;
    if (!watch) row.downloadMs.push(performance.now() - t);
    if (watcher) row.downloadPeakMb = Math.max(row.downloadPeakMb, await watcher.stop());
    if (got !== SIZE) throw new Error(`${name}: read ${got} bytes of ${SIZE}`);
  };
  for (let i = 0; i < reps; i++) await once(false);
  await once(true);
  return row;
}

export async function benchArtifactStores(reps = 3): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'mimo-artifact-bench-'));
  const server = await startPostgres();
  const pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 4 });
  pool.on('error', () => undefined);
  try {
    await migrate(pool);
    const folder = await measure('folder store (embedded)', createFolderArtifactStore(join(root, 'artifacts')), reps);
    const postgres = await measure('PostgreSQL store (cluster)', createPostgresArtifactStore({ pool }), reps);
    return [folder, postgres];
  } finally {
    await pool.end();
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

export function printArtifactStores(rows: Row[]): void {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mbps = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000);
  const ref = rows[0]!;
  console.log(
    `one ${SIZE / 1024 / 1024} MB artifact uploaded in ${PIECE / 1024} KiB pieces and streamed back, ${ref.uploadMs.length} times each (median); memory: peak growth of live heap + array buffers in a separate pass (GC every 10 ms)`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(28)} upload ${mbps(median(r.uploadMs)).toFixed(0).padStart(4)} MB/s (x${(median(r.uploadMs) / median(ref.uploadMs)).toFixed(2)} time)  download ${mbps(median(r.downloadMs)).toFixed(0).padStart(4)} MB/s (x${(median(r.downloadMs) / median(ref.downloadMs)).toFixed(2)} time)  peak memory +${r.uploadPeakMb.toFixed(1)} MB up, +${r.downloadPeakMb.toFixed(1)} MB down`,
    );
  }
}
