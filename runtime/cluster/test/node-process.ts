// One Mimo node as its own process (for the cluster end-to-end test and the bench): startMimo
// from the environment, one JSON line on stdout once listening, graceful leave and close on SIGTERM (as runtime/main.ts).
import { startMimo } from '../../app.ts';

const logs = process.env.MIMO_TEST_NODE_LOG === '1';
const app = await startMimo(process.env, {
  log: (entry) => logs && process.stderr.write(`${JSON.stringify({ node: process.env.MIMO_NODE_ID, ...entry })}\n`),
});
process.stdout.write(
  `${JSON.stringify({ url: app.server.url, nodeId: app.cluster?.config.nodeId, pid: process.pid })}\n`,
);
process.on('SIGTERM', () => {
  void (async () => {
    if (app.cluster) await app.cluster.leave().catch(() => undefined);
    await app.close();
    process.exit(0);
  })();
});
