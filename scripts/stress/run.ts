// `npm run stress`: the full fuzz run (1,000,000 frames, 100,000 JSON messages) and the soak
// (1,000 sockets, 200 tasks, 60 s) against live servers on 127.0.0.1; bounded by counts and
// time. Prints the reports; exits 1 on any failure.
import { runFuzz } from './fuzz.ts';
import { runSoak } from './soak.ts';

const report = await runFuzz({
  frames: Number(process.env.FUZZ_FRAMES ?? 1_000_000),
  jsonMessages: Number(process.env.FUZZ_JSON ?? 100_000),
  seed: Number(process.env.MIMO_FUZZ_SEED ?? 20261122),
});
console.log('fuzz:', JSON.stringify(report, null, 2));
const fuzzOk =
  report.serverAlive &&
  report.controlFailures === 0 &&
  report.garbageConnectionsLeftOpen === 0 &&
  report.jsonMessagesAnswered === report.jsonMessagesSent;
const soak = await runSoak({ seconds: Number(process.env.SOAK_SECONDS ?? 60) });
console.log(
  'soak:',
  JSON.stringify(
    { ...soak, heapSamples: soak.heapSamples.map((p) => `${p.atS.toFixed(1)}s ${p.heapMB.toFixed(1)}MB`) },
    null,
    2,
  ),
);
// Heap: the line through the rest samples may not rise more than 10 % over its span.
const soakOk = soak.serverAlive && soak.lost === 0 && soak.actions > 0 && soak.heap.growthOverSpan <= 0.1;
const ok = fuzzOk && soakOk;
console.log(ok ? 'stress: passed' : 'stress: FAILED');
process.exitCode = ok ? 0 : 1;
