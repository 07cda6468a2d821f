// Versioned schema migrations of cluster mode, applied at start by every node. Each version runs
// once, in its own transaction, under a transaction-level advisory lock, so nodes starting at the
// same moment apply it exactly once; `mimo_schema_migrations` records what ran. Append new
// versions at the end; never edit one that has shipped.
import type pg from 'pg';
import { inTransaction } from './postgres-transaction.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks, messages, MCP runs, extensions, artifacts, socket.io attachments',
    sql: `
      CREATE TABLE mimo_tasks (
        task_id text PRIMARY KEY,
        title text NOT NULL,
        status text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        selected_client_id text,
        usage json NOT NULL,
        machine_snapshot json
      );
      CREATE INDEX mimo_tasks_recency ON mimo_tasks (updated_at DESC, created_at DESC, task_id COLLATE "C");
      CREATE INDEX mimo_tasks_live ON mimo_tasks (status) WHERE status IN ('running', 'ongoing', 'takeover');

      -- seq orders a task's messages: appends to one task hold its row lock, so seq follows commit order.
      CREATE TABLE mimo_messages (
        task_id text NOT NULL REFERENCES mimo_tasks (task_id) ON DELETE CASCADE,
        id text NOT NULL,
        seq bigserial NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        ts bigint NOT NULL,
        meta json,
        PRIMARY KEY (task_id, id)
      );
      CREATE INDEX mimo_messages_order ON mimo_messages (task_id, seq);

      CREATE TABLE mimo_mcp_runs (
        run_id text PRIMARY KEY,
        record json NOT NULL,
        updated_at bigint NOT NULL
      );

      -- The registry's durable part: who registered, with what metadata, and which node holds
      -- its socket now (node_id NULL: offline).
      CREATE TABLE mimo_extensions (
        client_id text PRIMARY KEY,
        metadata json NOT NULL,
        node_id text,
        last_seen_at bigint NOT NULL
      );

      CREATE TABLE mimo_artifacts (
        artifact_id text PRIMARY KEY,
        meta json NOT NULL,
        bytes bytea,
        expires_at bigint NOT NULL
      );

      -- Nodes. A node is alive while it holds the advisory lock (namespace, lock_key) on its
      -- ownership connection: PostgreSQL drops it the moment that connection dies.
      CREATE TABLE mimo_nodes (
        node_id text PRIMARY KEY,
        lock_key serial NOT NULL UNIQUE,
        url text NOT NULL,
        started_at bigint NOT NULL
      );

      -- Which node last claimed a task (its advisory lock is the truth; this row says whom to ask).
      CREATE TABLE mimo_task_owners (
        task_id text PRIMARY KEY,
        node_id text NOT NULL,
        claimed_at bigint NOT NULL
      );

      -- Actions dispatched, by a key that a replayed turn computes again (task, turn, step): the
      -- idempotency record failover checks before it sends an action again. action_id is the
      -- wire id of the first dispatch (reused on a re-send, so the plugin can deduplicate);
      -- output is the settled result, once known.
      CREATE TABLE mimo_actions (
        action_key text PRIMARY KEY,
        action_id text NOT NULL,
        task_id text NOT NULL,
        node_id text NOT NULL,
        dispatched_at bigint NOT NULL,
        output json
      );

      -- Settings every node must share (e.g. the artifact upload-token secret), made by the first node.
      CREATE TABLE mimo_settings (
        key text PRIMARY KEY,
        value text NOT NULL
      );

      -- @socket.io/postgres-adapter stores payloads above its NOTIFY threshold here (its README's table).
      CREATE TABLE socket_io_attachments (
        id bigserial UNIQUE,
        created_at timestamptz DEFAULT NOW(),
        payload bytea
      );
    `,
  },
  {
    version: 2,
    name: 'artifact metadata as columns, bytes in chunks; MCP runs carry their node and status',
    sql: `
      -- Version 1's mimo_artifacts (meta json + one bytea) was never written: replaced by columns
      -- the service queries (the single-use upload claim, expiry for the sweep) and bytes in
      -- 256 KiB chunks, so neither an upload nor a download holds a whole artifact in memory.
      DROP TABLE mimo_artifacts;
      CREATE TABLE mimo_artifacts (
        artifact_id text PRIMARY KEY,
        task_id text NOT NULL,
        kind text NOT NULL,
        content_type text NOT NULL,
        created_at bigint NOT NULL,
        -- pending -> uploading (one claim holds the upload) -> ready; a failed upload goes back to pending.
        state text NOT NULL CHECK (state IN ('pending', 'uploading', 'ready')),
        upload_expires_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        size bigint,
        uploaded_at bigint,
        -- The claim whose chunks are (or will be) the bytes, and when it was taken.
        upload_claim text,
        upload_claimed_at bigint
      );
      CREATE INDEX mimo_artifacts_expiry ON mimo_artifacts (expires_at);
      CREATE TABLE mimo_artifact_chunks (
        artifact_id text NOT NULL REFERENCES mimo_artifacts (artifact_id) ON DELETE CASCADE,
        claim text NOT NULL,
        seq integer NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (artifact_id, claim, seq)
      );

      -- Which node runs a template run, and its status as a column: a node that died leaves
      -- non-terminal runs another node marks interrupted (runtime/cluster/run-failover.ts).
      ALTER TABLE mimo_mcp_runs ADD COLUMN node_id text;
      ALTER TABLE mimo_mcp_runs ADD COLUMN status text;
      ALTER TABLE mimo_mcp_runs ADD COLUMN template_id text;
      ALTER TABLE mimo_mcp_runs ADD COLUMN created_at bigint;
      UPDATE mimo_mcp_runs SET status = record->>'status', template_id = record->>'templateId', created_at = (record->>'createdAt')::bigint;
      CREATE INDEX mimo_mcp_runs_recent ON mimo_mcp_runs (created_at DESC, run_id DESC);
      CREATE INDEX mimo_mcp_runs_live ON mimo_mcp_runs (node_id) WHERE status IN ('queued', 'running');
    `,
  },
  {
    version: 3,
    name: 'task ownership generations',
    sql: `
      -- How many times the task changed hands (0 for its first owner, +1 on every fresh claim):
      -- each owner numbers the task's events above every earlier owner's (runtime/cluster/owner-seq.ts).
      ALTER TABLE mimo_task_owners ADD COLUMN generation integer NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    name: 'task turn outcome',
    sql: `
      -- How the last turn of a task in error ended: 'error' (failed) or 'interrupted' (cut short by
      -- a restart or a failover), so a task list shows Interrupted without reading the messages.
      ALTER TABLE mimo_tasks ADD COLUMN outcome text;
    `,
  },
];

/** Any constant: the key of the advisory lock that serializes migrations across nodes. */
const MIGRATION_LOCK_KEY = 0x6d696d6f; // "mimo"

export async function migrate(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<{ applied: number[] }> {
  const applied: number[] = [];
  // One transaction under the lock: a second node starting at once waits, then finds it done.
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS mimo_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM mimo_schema_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO mimo_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
  });
  return { applied };
}
