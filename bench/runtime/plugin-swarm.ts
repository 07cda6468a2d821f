// Fake plugins in their own process for the runtime benchmarks: argv = url, count, delayMs?. Each
// acks every browser_action at once and answers success after delayMs (default: at once).
// Prints "ready" when all are connected. Started with an IPC channel, it answers {type:'stats'}
// with what its plugins executed: {type:'stats', executed, perPlugin} (the soak counts actions so).
import { okAnswer, startFakePlugin } from '../../runtime/test-util/fake-plugin.ts';

const [url, countText, delayText] = process.argv.slice(2);
const delayMs = Number(delayText ?? 0);
const plugins = await Promise.all(
  Array.from({ length: Number(countText) }, (_, i) =>
    startFakePlugin({
      url: url!,
      clientId: `bench-plugin-${i}`,
      answer: (name, params) => ({ ...okAnswer(name, params), ...(delayMs > 0 ? { delayMs } : {}) }),
    }),
  ),
);
process.on('SIGTERM', () => {
  for (const p of plugins) p.close();
  process.exit(0);
});
process.on('message', (message: { type?: string }) => {
  if (message?.type !== 'stats') return;
  const perPlugin = plugins.map((p) => p.executed.length);
  process.send?.({ type: 'stats', executed: perPlugin.reduce((a, b) => a + b, 0), perPlugin });
});
console.log('ready');
