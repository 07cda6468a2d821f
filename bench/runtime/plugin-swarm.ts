// Fake plugins in their own process for the runtime benchmarks: argv = url, count. Each answers
// every browser_action at once (ack + success). Prints "ready" when all are connected.
import { startFakePlugin } from '../../runtime/test-util/fake-plugin.ts';

const [url, countText] = process.argv.slice(2);
const plugins = await Promise.all(
  Array.from({ length: Number(countText) }, (_, i) => startFakePlugin({ url: url!, clientId: `bench-plugin-${i}` })),
);
process.on('SIGTERM', () => {
  for (const p of plugins) p.close();
  process.exit(0);
});
console.log('ready');
