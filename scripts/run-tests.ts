// Runs every uvu suite file (`*.test.ts`) in its own Node process, so a suite that opens
// servers or browsers cannot leak state into the next, then prints one summary line:
// "Tests: N passed, N failed, N skipped". Exit code 1 when anything failed.
//
//   node --import tsx scripts/run-tests.ts [filter...]
//
// MIMO_TEST_JOBS sets how many files run at once (default 1: timing-sensitive suites
// share two cores with the browser); MIMO_TEST_FILE_TIMEOUT_MS bounds one file (default 300 s).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromiumMissing } from './chromium-check.ts';

const root = new URL('..', import.meta.url).pathname;
const folders = ['transport', 'machines', 'runtime', 'web', 'extension', 'fixtures', 'scripts', 'bench'];
const filters = process.argv.slice(2);
const jobs = Math.max(1, Number(process.env.MIMO_TEST_JOBS ?? 1));
const fileTimeoutMs = Number(process.env.MIMO_TEST_FILE_TIMEOUT_MS ?? 300_000);

function findTestFiles(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTestFiles(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

interface FileOutcome {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  exitCode: number | null;
  ms: number;
  output: string;
}

/** The sum over every uvu summary in the output (a file whose suites run in several rounds prints one per round). */
function count(output: string, label: string): number {
  let sum = 0;
  for (const match of output.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))) sum += Number(match[1]);
  return sum;
}

function runFile(file: string): Promise<FileOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n[run-tests] ${relative(root, file)} exceeded ${fileTimeoutMs} ms and was killed\n`;
      child.kill('SIGKILL');
    }, fileTimeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const total = count(output, 'Total');
      const passed = count(output, 'Passed');
      const skipped = count(output, 'Skipped');
      // A file that crashed before uvu printed its summary counts as one failure.
      let failed = Math.max(0, total - passed - skipped);
      if (exitCode !== 0 && failed === 0) failed = 1;
      if (total === 0 && exitCode === 0) {
        output += '\n[run-tests] no test ran in this file\n';
        failed = 1;
      }
      resolve({ file, passed, failed, skipped, exitCode, ms: performance.now() - started, output });
    });
  });
}

const files = folders
  .flatMap((folder) => findTestFiles(join(root, folder)))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();

// Before running anything: the browser suites cannot run without Chromium.
const missing = chromiumMissing(files);
if (missing) {
  console.error(missing);
  process.exit(1);
}

const outcomes: FileOutcome[] = [];
let next = 0;
async function worker(): Promise<void> {
  while (next < files.length) {
    const file = files[next++]!;
    const outcome = await runFile(file);
    outcomes.push(outcome);
    const mark = outcome.failed > 0 ? 'FAIL' : 'ok  ';
    console.log(
      `${mark} ${relative(root, file)}  ${outcome.passed} passed, ${outcome.failed} failed  (${(outcome.ms / 1000).toFixed(1)} s)`,
    );
    if (outcome.failed > 0) console.log(outcome.output.replace(/^/gm, '    | '));
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));

const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
const skipped = outcomes.reduce((n, o) => n + o.skipped, 0);
if (files.length === 0) console.log('[run-tests] no test files found');
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || files.length === 0 ? 1 : 0;
