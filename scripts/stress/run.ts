// `npm run stress`: the full fuzz run (1,000,000 frames, 100,000 JSON messages) against a live
// server on 127.0.0.1; bounded by its counts. Prints the report; exits 1 on any failure.
import { runFuzz } from './fuzz.ts';

const report = await runFuzz({
  frames: Number(process.env.FUZZ_FRAMES ?? 1_000_000),
  jsonMessages: Number(process.env.FUZZ_JSON ?? 100_000),
  seed: Number(process.env.MIMO_FUZZ_SEED ?? 20261122),
});
console.log('fuzz:', JSON.stringify(report, null, 2));
const ok = report.serverAlive && report.controlFailures === 0 && report.garbageConnectionsLeftOpen === 0 && report.jsonMessagesAnswered === report.jsonMessagesSent;
console.log(ok ? 'stress: passed' : 'stress: FAILED');
process.exitCode = ok ? 0 : 1;
