// The upload path of a screenshot (presign, then acceptUpload of a 180 KB body in 64 KB chunks,
// as a Node request delivers it) into the folder store, in process: CPU per upload (the process's
// user + system time, which counts the file system work of libuv's thread pool too) and the file
// operations' wall time. With MIMO_BENCH_COMPARE_TREE=<another checkout> the same loop runs there
// too, rounds interleaved (base, ours, base, ours, ...), one process.
//
//   node --import tsx bench/runtime/artifact-upload.bench.ts
//     MIMO_BENCH_UPLOADS (per round, default 2000), MIMO_BENCH_ROUNDS (default 5), MIMO_BENCH_COMPARE_TREE
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Service = {
  presign(input: {
    taskId: string;
    kind: string;
    contentType: string;
  }): Promise<{ uploadUrl: string; artifactId: string }>;
  acceptUpload(id: string, token: string, body: AsyncIterable<Uint8Array>, opts: object): Promise<unknown>;
};
type Make = (options: Record<string, unknown>) => Service;

const uploads = Number(process.env.MIMO_BENCH_UPLOADS ?? 2000);
const rounds = Number(process.env.MIMO_BENCH_ROUNDS ?? 5);
const png = Buffer.alloc(180 * 1024, 7);
const CHUNK = 64 * 1024;

async function* body(): AsyncIterable<Uint8Array> {
  for (let i = 0; i < png.length; i += CHUNK) yield png.subarray(i, i + CHUNK);
}

async function load(tree: string): Promise<Make> {
  const mod = (await import(pathToFileURL(join(tree, 'runtime/artifacts/index.ts')).href)) as {
    createArtifactService: Make;
  };
  return mod.createArtifactService;
}

async function round(make: Make): Promise<{ cpu: number; wall: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mimo-upload-bench-'));
  const service = make({
    dir,
    secret: 'bench-secret-0123456789abcdef',
    clock: { now: () => Date.now() },
    publicBaseUrl: 'http://127.0.0.1:6006',
  });
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < uploads; i++) {
    const p = await service.presign({ taskId: 't', kind: 'screenshot', contentType: 'image/png' });
    const token = decodeURIComponent(new URL(p.uploadUrl).searchParams.get('token')!);
    await service.acceptUpload(p.artifactId, token, body(), { contentLength: png.length, contentType: 'image/png' });
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - wall0;
  rmSync(dir, { recursive: true, force: true });
  return { cpu: (cpu.user + cpu.system) / uploads, wall: (wall * 1000) / uploads };
}

const here = resolve(new URL('../..', import.meta.url).pathname);
const compare = process.env.MIMO_BENCH_COMPARE_TREE;
const variants: Array<[string, Make]> = [['ours', await load(here)]];
if (compare) variants.unshift(['base', await load(resolve(compare))]);
const results = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (const [, make] of variants) await round(make); // warm up
for (let r = 1; r <= rounds; r++) {
  for (const [name, make] of variants) {
    const { cpu, wall } = await round(make);
    results.get(name)!.push(cpu);
    console.log(`  ${name} ${r}  CPU/upload ${cpu.toFixed(0)} µs  wall/upload ${wall.toFixed(0)} µs`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, xs] of results) console.log(`${name}: median CPU/upload ${median(xs).toFixed(0)} µs`);
if (compare) console.log(`ours / base: ${(median(results.get('ours')!) / median(results.get('base')!)).toFixed(2)}x`);
