// Fake plugins in their own process for the runtime benchmarks: argv = url, count, delayMs?. Each
// acks every browser_action at once and answers success after delayMs (default: at once).
// Prints "ready" when all are connected.
import { okAnswer, startFakePlugin } from '../../runtime/test-util/fake-plugin.ts';

const [url, countText, delayText] = process.argv.slice(2);
const delayMs = Number(delayText ?? 0);
const plugins = await Promise.all(
  Array.from({ length: Number(countText) }, (_, i) =>
    startFakePlugin({ url: url!, clientId: `bench-plugin-${i}`, answer: (name, params) => ({ ...okAnswer(name, params), ...(delayMs > 0 ? { delayMs } : {}) }) }),
  ),
);
process.on('SIGTERM', () => {
  for (const p of plugins) p.close();
  process.exit(0);
});
console.log('ready');
