// `npm start`: the Mimo server on its embedded defaults (offline planner, ./data, :6006).
import { resolve } from 'node:path';
import { oneClickUrl } from './access-token.ts';
import { startMimo, StartupError, type MimoApp } from './app.ts';
import { describeLlm } from './llm-from-env.ts';

let app: MimoApp;
try {
  app = await startMimo(process.env);
} catch (error) {
  const code = (error as { code?: string }).code;
  const message =
    error instanceof StartupError
      ? error.message
      : code === 'EADDRINUSE'
        ? `port ${process.env.MIMO_PORT ?? 6006} is in use (set MIMO_PORT)`
        : String(error);
  console.error(
    `Mimo cannot start:\n${message
      .split('\n')
      .map((line) => `  - ${line}`)
      .join('\n')}`,
  );
  process.exit(1);
}
const { config, llm } = app;
const extensionDir = resolve(new URL('..', import.meta.url).pathname, 'extension', 'dist');
console.log(
  [
    '',
    `Mimo is running: ${app.server.url === config.publicBaseUrl ? config.publicBaseUrl : `${app.server.url} (public: ${config.publicBaseUrl})`}`,
    `  web UI at /, HTTP API at /api, Socket.IO at /socket.io/ (namespace /mimo), MCP at /mcp`,
    `LLM: ${describeLlm(llm, process.env)}`,
    `Browser extension: open chrome://extensions, enable Developer mode, "Load unpacked" -> ${extensionDir}`,
    app.policy.summary,
    `Data: ${config.dataDir}   Artifacts: ${app.cluster ? 'in PostgreSQL (cluster mode)' : config.artifactDir}`,
    ...(app.cluster
      ? [
          `Cluster mode: node ${app.cluster.config.nodeId}; tasks, runs, artifacts and the token are shared through PostgreSQL.`,
        ]
      : []),
    ...accessLines(app.access),
    ...(app.server.damagedTasks.length
      ? [
          `WARNING: ${app.server.damagedTasks.length} task file(s) in ${config.dataDir} could not be read and are left untouched (GET /api/task/list?damaged=1 lists them): ${app.server.damagedTasks
            .slice(0, 3)
            .map((d) => `${d.taskId} (${d.reason})`)
            .join(', ')}`,
        ]
      : []),
    ...(app.restored ? [`Restored ${app.restored} interrupted task(s) to "ongoing".`] : []),
    ...(app.statelyUrl
      ? [`Stately Inspector bridge: ${config.token ? oneClickUrl(app.statelyUrl, config.token) : app.statelyUrl}`]
      : []),
    ...(app.recorder ? [`Recording sessions to ${app.recorder.dir}`] : []),
    '',
  ].join('\n'),
);

function accessLines(access: MimoApp['access']): string[] {
  if (access.mode === 'off') return [`WARNING: ${access.warning}`];
  const where =
    access.mode === 'env'
      ? 'Token: from MIMO_TOKEN.'
      : access.mode === 'cluster'
        ? "Token: the cluster's shared token, kept in PostgreSQL (table mimo_settings, key access_token; made by the first node, used by every node). Set MIMO_TOKEN on every node to choose it yourself."
        : `Token: ${access.created ? 'created in' : 'kept in'} ${access.path} (mode 0600)${access.fixedMode ? ` (its mode was ${access.fixedMode}; narrowed to 0600)` : ''}.`;
  return [
    where,
    `Open the web UI with this link (it hands the token to the page, which keeps it and drops it from the address bar):`,
    `  ${access.oneClickUrl}`,
    `Other clients send it as "Authorization: Bearer <token>" (HTTP, /mcp) or { token } in the Socket.IO auth payload; the extension takes it from the web UI's "Connect this browser" or its options page.`,
  ];
}

// A cluster node leaves gracefully (runtime/cluster/graceful-leave.ts): it takes no new task,
// lets the actions at the extensions settle (at most 10 s), hands its tasks to the other nodes,
// then closes. A second signal ends it at once.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    if (app.cluster)
      await app.cluster
        .leave()
        .catch((error: unknown) => console.error(`Mimo could not hand its tasks over: ${String(error)}`));
    await app.close();
    process.exit(0);
  });
}
