// What the HTTP upload of one screenshot (180 KB, PUT to its presigned URL) costs the server,
// beside the floor: a plain Node HTTP server that reads the same body and answers a small JSON.
// The server runs in this process (the routes of createHttpApp over the folder artifact store, as
// `mimo` serves them through @hono/node-server), the client in another
// (blackbox/upload-client.ts); reported: this process's CPU per upload (the thread pool's file
// work included), rounds interleaved (plain, ours, plain, ours, ...).
//
//   node --import tsx bench/runtime/upload-http.bench.ts
//     MIMO_BENCH_UPLOADS (per round, default 1000), MIMO_BENCH_ROUNDS (default 3)
import { fork } from 'node:child_process';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { call, makeHarness, postJson, TASK_ID } from '../../runtime/http/test/util.ts';

const uploads = Number(process.env.MIMO_BENCH_UPLOADS ?? 1000);
const rounds = Number(process.env.MIMO_BENCH_ROUNDS ?? 3);
const h = await makeHarness({ maxUploadBytes: 1024 * 1024 });
const plain: RequestListener = (req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"ok":true}');
  });
};
const servers = {
  plain: createServer(plain),
  ours: createServer(getRequestListener((request, env) => h.app.fetch(request, env))),
};
const origins: Record<string, string> = {};
for (const [name, server] of Object.entries(servers)) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origins[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const client = fork(fileURLToPath(new URL('./blackbox/upload-client.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx'],
});

async function round(name: 'plain' | 'ours'): Promise<number> {
  const urls: string[] = [];
  for (let i = 0; i < uploads; i++) {
    const res = await call(
      h.app,
      '/api/artifacts/presign',
      postJson({ taskId: TASK_ID, kind: 'screenshot', contentType: 'image/png' }),
    );
    const url = new URL(res.body.data.uploadUrl as string);
    urls.push(`${origins[name]}${url.pathname}${url.search}`);
  }
  const before = process.cpuUsage();
  const done = new Promise<{ ms: number; refused: number }>((resolve) => client.once('message', resolve as never));
  client.send({ urls });
  const { refused } = await done;
  if (refused > 0) throw new Error(`${refused} uploads refused`);
  const cpu = process.cpuUsage(before);
  return (cpu.user + cpu.system) / uploads;
}

const results = { plain: [] as number[], ours: [] as number[] };
for (let r = 1; r <= rounds; r++) {
  for (const name of ['plain', 'ours'] as const) {
    const micros = await round(name);
    results[name].push(micros);
    console.log(`  ${name.padEnd(5)} ${r}  server CPU per 180 KB upload ${micros.toFixed(0)} µs`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `medians: plain Node HTTP ${median(results.plain).toFixed(0)} µs, ours ${median(results.ours).toFixed(0)} µs (${(median(results.ours) / median(results.plain)).toFixed(2)}x)`,
);
client.kill();
for (const server of Object.values(servers)) server.close();
await h.remove();
process.exit(0);
