// Template runs persisted (seed 003 §4.3: list_task_runs reads history): one small document per
// run, `<dataDir>/mcp-runs/<runId>.json` = {"version":1,"run":{...}}, written with lowdb's
// DataFile (temp file + rename, so a crash leaves the old or the new document). Writes of one
// run are serialized and coalesced: the latest record is what lands. A memory variant for tests.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Adapter } from 'lowdb';
import { Memory } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { RunStatus } from '../../../machines/index.ts';
import type { RunMode, TrustLevel } from '../templates/template-types.ts';
import type { SeedError } from '../tools/tool-errors.ts';

export const RUN_ID_PATTERN = /^run_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface RunArtifactRef {
  artifactId: string;
  type: string;
  mimeType: string;
  size: number;
  /** 24 h after the run's terminal state (003 §5). */
  expiresAt: number;
}

export interface RunStepRecord {
  stepId: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';
  error?: { code: string; message: string };
}

export interface RunRecord {
  runId: string;
  templateId: string;
  templateVersion: string;
  status: RunStatus;
  sessionId: string;
  /** The run created its session (closed at the end unless the template keeps it). */
  sessionCreated: boolean;
  trustLevel: TrustLevel;
  mode: RunMode;
  /** Inputs as given, secrets redacted. */
  inputs: Record<string, unknown>;
  timeoutMs: number;
  concurrency: number;
  createdAt: number;
  updatedAt: number;
  startedAt?: number;
  endedAt?: number;
  cancelRequested: boolean;
  progress: { totalSteps: number; doneSteps: number };
  steps: RunStepRecord[];
  result?: Record<string, unknown>;
  artifacts?: RunArtifactRef[];
  error?: SeedError;
}

interface RunDoc {
  version: 1;
  run: RunRecord;
}

export interface RunListFilter {
  status?: RunStatus | undefined;
  templateId?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface RunStore {
  /**
   * Loads the runs this process must know at start (unreadable documents are skipped and
   * reported): every stored run for the file store; for a shared store, only this node's runs
   * that a previous life of it left unfinished (the rest is read on demand via get/list).
   */
  init(): Promise<{ runs: RunRecord[]; skipped: string[] }>;
  /** Writes the run (coalesced per run); resolves when this version or a later one is on disk. */
  put(run: RunRecord): Promise<void>;
  flush(): Promise<void>;
  /**
   * A store other processes write too (cluster mode): get_task_run and list_task_runs read it
   * rather than this process's memory, so every node sees every run, stored after it started too.
   */
  get?(runId: string): Promise<RunRecord | undefined>;
  list?(filter: RunListFilter): Promise<{ total: number; runs: RunRecord[] }>;
}

export function createRunStoreOver(
  adapterFor: (runId: string) => Adapter<RunDoc>,
  listIds: () => Promise<string[]>,
  prepare: () => Promise<void>,
): RunStore {
  const latest = new Map<string, RunRecord>();
  const writing = new Map<string, Promise<void>>();

  async function drain(runId: string): Promise<void> {
    await prepare();
    for (;;) {
      const run = latest.get(runId);
      if (!run) return;
      latest.delete(runId);
      await adapterFor(runId).write({ version: 1, run: structuredClone(run) });
    }
  }

  function put(run: RunRecord): Promise<void> {
    if (!RUN_ID_PATTERN.test(run.runId)) return Promise.reject(new TypeError(`bad run id ${run.runId}`));
    latest.set(run.runId, run);
    const inFlight = writing.get(run.runId);
    // A write in flight may already have passed its last look at `latest`: go again after it.
    if (inFlight) return inFlight.then(() => (latest.has(run.runId) ? put(latest.get(run.runId)!) : undefined));
    const job = drain(run.runId).finally(() => writing.delete(run.runId));
    writing.set(run.runId, job);
    return job;
  }

  return {
    async init() {
      await prepare();
      const runs: RunRecord[] = [];
      const skipped: string[] = [];
      for (const id of await listIds()) {
        try {
          const doc = await adapterFor(id).read();
          if (doc?.version === 1 && doc.run?.runId === id) runs.push(doc.run);
          else skipped.push(id);
        } catch {
          skipped.push(id);
        }
      }
      return { runs, skipped };
    },
    put,
    async flush() {
      while (writing.size > 0) await Promise.allSettled([...writing.values()]);
    },
  };
}

export function createRunStore(options: { dataDir: string }): RunStore {
  const dir = join(options.dataDir, 'mcp-runs');
  let prepared: Promise<void> | null = null;
  return createRunStoreOver(
    (runId) =>
      new DataFile<RunDoc>(join(dir, `${runId}.json`), { parse: JSON.parse, stringify: (d) => JSON.stringify(d) }),
    async () =>
      (await readdir(dir))
        .filter((name) => name.endsWith('.json') && RUN_ID_PATTERN.test(name.slice(0, -5)))
        .map((name) => name.slice(0, -5)),
    () => (prepared ??= mkdir(dir, { recursive: true }).then(() => undefined)),
  );
}

export function createMemoryRunStore(): RunStore & { docs: Map<string, Memory<RunDoc>> } {
  const docs = new Map<string, Memory<RunDoc>>();
  const store = createRunStoreOver(
    (runId) => {
      let doc = docs.get(runId);
      if (!doc) docs.set(runId, (doc = new Memory<RunDoc>()));
      return doc;
    },
    async () => [...docs.keys()],
    async () => {},
  );
  return Object.assign(store, { docs });
}
