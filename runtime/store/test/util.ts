// Shared helpers for the task store tests.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskStoreError } from '../task-store-error.ts';
import { createTestClock, type TestClock } from '../../clock/index.ts';

export const T0 = 1_730_000_000_000;

export async function makeTempDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `mimo-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Awaits a promise that must reject with a TaskStoreError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<TaskStoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TaskStoreError) return error;
    throw new Error(`expected a TaskStoreError, got ${String(error)}`);
  }
  throw new Error('expected the promise to reject');
}

/** Every file under `dir` whose name ends in .json (temp files are `.<name>.tmp` and excluded). */
export async function listJsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && (entry.name.endsWith('.json') || entry.name.endsWith('.jsonl')))
      out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

export async function parseAll(files: string[]): Promise<void> {
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (file.endsWith('.jsonl')) for (const line of text.split('\n').slice(0, -1)) JSON.parse(line);
    else JSON.parse(text);
  }
}
