// `npm run bench`: every benchmark section, each a ratio against a reference measured side by
// side in the same run. MIMO_BENCH_SECONDS shortens the timed sections; MIMO_BENCH_ONLY=name
// runs one section.
import { benchTransport, printTransport } from './transport/transport.bench.ts';
import { benchActionRoundTrip, printActionRoundTrip } from './transport/action-round-trip.bench.ts';
import { benchTaskStoreAppend, printTaskStoreAppend } from '../runtime/store/bench/task-store.bench.ts';
import {
  benchHeldHandles,
  benchMessageAppend,
  printMessageAppend,
} from '../runtime/store/bench/message-append.bench.ts';
import { benchStoreStart, printStoreStart } from '../runtime/store/bench/store-start.bench.ts';
import { benchActionOverhead, printActionOverhead } from './runtime/action-overhead.bench.ts';
import { benchAgentLoop, printAgentLoop } from './runtime/agent-loop.bench.ts';
import { benchActorFloor, printActorFloor } from './runtime/actor-floor.bench.ts';
import { benchServerBlackbox, printServerBlackbox } from './runtime/server-blackbox.bench.ts';
import { measureWebBundle, printWebBundle } from '../web/bench-size.ts';
import { benchDeltaLatency, pageContextTokens, printAgent } from './runtime/agent.bench.ts';
import { benchLiveView, printLiveView } from './runtime/live-view.bench.ts';
import { benchCluster, printCluster } from './cluster/cluster.bench.ts';
import { benchArtifactStores, printArtifactStores } from './cluster/artifact-store.bench.ts';
import { benchSnapshotCost, printSnapshotCost } from './extension/snapshot-cost.ts';

interface Section {
  name: string;
  run(): Promise<void>;
}

const seconds = Number(process.env.MIMO_BENCH_SECONDS ?? 10);
const sections: Section[] = [
  { name: 'transport', run: async () => printTransport(await benchTransport({ seconds })) },
  // One browser action's transport cost (browser_action + ack + result), ours vs socket.io, bare and through the plugin gateway.
  { name: 'action-round-trip', run: async () => printActionRoundTrip(await benchActionRoundTrip({ seconds })) },
  { name: 'task-store', run: async () => printTaskStoreAppend(await benchTaskStoreAppend()) },
  { name: 'message-append', run: async () => printMessageAppend(await benchMessageAppend(), await benchHeldHandles()) },
  // Server start with 100,000 stored tasks (index vs. the full scan vs. an empty folder), list page vs. whole list.
  { name: 'store-start', run: async () => printStoreStart(await benchStoreStart()) },
  { name: 'agent', run: async () => printAgent(await benchDeltaLatency(), pageContextTokens()) },
  { name: 'web', run: async () => printWebBundle(await measureWebBundle()) },
  // The real path: the whole agent loop, 200 tasks, plugins in another process answering after 20 ms.
  // What XState alone costs per action in the task tree, beside plain bookkeeping.
  { name: 'actor-floor', run: async () => printActorFloor(benchActorFloor()) },
  {
    name: 'agent-loop',
    run: async () => {
      // 200 tasks saturate the one JS thread (about 10,000 actions/s asked for); 20 do not.
      for (const tasks of [200, 20]) printAgentLoop(await benchAgentLoop({ tasks, seconds: Math.min(seconds, 5) }));
    },
  },
  // The whole server in its own process, fake extensions like the real one in another, beside a
  // plain Socket.IO event+ack measured in the same run; 20 tasks (the gap) and 200 (saturation).
  {
    name: 'server-blackbox',
    run: async () => {
      for (const tasks of [20, 200])
        printServerBlackbox(await benchServerBlackbox({ tasks, seconds: Math.min(seconds, 5), rounds: 3 }));
    },
  },
  {
    name: 'live-view',
    run: async () => {
      for (const viewers of [1, 5]) {
        const options = { viewers, seconds: Math.min(seconds, 5) };
        printLiveView(
          await benchLiveView({ kind: 'ours', ...options }),
          await benchLiveView({ kind: 'socketio', ...options }),
        );
      }
    },
  },
  {
    name: 'action-overhead',
    run: async () => {
      // The load (200 concurrent tasks) and two lighter ones for comparison.
      for (const tasks of [200, 20, 1])
        printActionOverhead(
          await benchActionOverhead({ tasks, plugins: Math.min(tasks, 20), seconds: Math.min(seconds, 5) }),
        );
    },
  },
  // Cluster mode (PostgreSQL, node processes) beside the embedded single node, in one section.
  { name: 'cluster', run: async () => printCluster(await benchCluster()) },
  // The page-model snapshot (Chrome's accessibility tree through the extension) beside Playwright's ariaSnapshot() of the same tab.
  {
    name: 'snapshot',
    run: async () => printSnapshotCost(await benchSnapshotCost(Math.max(5, Math.min(20, seconds * 2)))),
  },
  // Artifacts in PostgreSQL (cluster mode) beside the folder store.
  { name: 'artifacts', run: async () => printArtifactStores(await benchArtifactStores()) },
];

const only = process.env.MIMO_BENCH_ONLY;
for (const section of sections) {
  if (only && section.name !== only) continue;
  console.log(`\n== ${section.name}`);
  await section.run();
}
