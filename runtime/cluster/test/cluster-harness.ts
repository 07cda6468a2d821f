// Starts Mimo node processes on one throwaway PostgreSQL, for the cluster end-to-end test and the
// bench. Artifacts are in PostgreSQL (each node's MIMO_ARTIFACT_DIR is its own and stays unused).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type PostgresServer } from '../../test-util/postgres-server.ts';

export interface NodeProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** SIGKILL, no goodbye: its sockets and database connections just drop. */
  kill9(): void;
  stop(): Promise<void>;
}

export interface ClusterHarness {
  pg: PostgresServer;
  databaseUrl: string;
  dir: string;
  startNode(name: string, extraEnv?: Record<string, string>): Promise<NodeProcess>;
  close(): Promise<void>;
}

/** The nodes' MIMO_TOKEN: clients send it (`auth.token`, `Authorization: Bearer`). */
export const CLUSTER_TOKEN = 'cluster-test-token-0123456789';
export const authHeaders = { Authorization: `Bearer ${CLUSTER_TOKEN}` };

const NODE_SCRIPT = fileURLToPath(new URL('./node-process.ts', import.meta.url));

export async function startClusterHarness(baseEnv: Record<string, string> = {}): Promise<ClusterHarness> {
  const pg = await startPostgres();
  const databaseUrl = await pg.createDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'mimo-cluster-'));
  const policyFile = join(dir, 'url-policy.json');
  writeFileSync(policyFile, JSON.stringify({ open: { allow_private_networks: ['loopback'] } }));
  const nodes = new Set<NodeProcess>();

  async function startNode(name: string, extraEnv: Record<string, string> = {}): Promise<NodeProcess> {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      MIMO_DATABASE_URL: databaseUrl,
      MIMO_NODE_ID: name,
      MIMO_PORT: '0',
      MIMO_DATA_DIR: join(dir, name),
      MIMO_ARTIFACT_DIR: join(dir, name, 'artifacts'),
      MIMO_ARTIFACT_SECRET: 'cluster-test-secret-0123456789abcdef',
      MIMO_TOKEN: CLUSTER_TOKEN,
      MIMO_URL_POLICY: policyFile,
      MIMO_FAILOVER_CHECK_MS: '250',
      ...(process.env.MIMO_TEST_NODE_LOG ? { MIMO_TEST_NODE_LOG: process.env.MIMO_TEST_NODE_LOG } : {}),
      ...baseEnv,
      ...extraEnv,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', NODE_SCRIPT], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) {
          child.stdout!.off('data', onData);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`node ${name} exited with ${code} before listening`)));
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const node: NodeProcess = {
      name,
      url,
      child,
      kill9: () => child.kill('SIGKILL'),
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
        nodes.delete(node);
      },
    };
    nodes.add(node);
    return node;
  }

  return {
    pg,
    databaseUrl,
    dir,
    startNode,
    async close() {
      await Promise.all([...nodes].map((n) => n.stop()));
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
