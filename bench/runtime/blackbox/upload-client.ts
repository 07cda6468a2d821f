// The client side of upload-http.bench.ts, in its own process: PUTs a 180 KB body (a screenshot's
// size) to each URL it is sent, 4 at a time, with fetch as the fake extensions do; answers
// {done, ms} once all are answered.
const png = new Uint8Array(180 * 1024).fill(7);
process.on('message', async ({ urls }: { urls: string[] }) => {
  const started = performance.now();
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        const response = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: png });
        await response.arrayBuffer();
        if (response.status !== 200) refused++;
      }
    }),
  );
  process.send!({ done: true, ms: performance.now() - started, refused });
});
