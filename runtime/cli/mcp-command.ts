// `mimo mcp`: MCP over stdio for desktop clients. Bridges to a running Mimo, or starts one in this
// process when none answers. stdout carries only the protocol; everything else goes to stderr.
import { startMimo, StartupError } from '../app.ts';
import { startStdioBridge } from '../mcp/stdio/stdio-bridge.ts';
import { probeTarget, readTarget, type McpTarget } from '../mcp/stdio/mcp-target.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function startOwnServer(env: NodeJS.ProcessEnv): Promise<{ target: McpTarget; close: () => Promise<void> }> {
  const app = await startMimo(env, { log: (entry) => say(JSON.stringify(entry)) });
  say(`mimo mcp: started a Mimo server at ${app.server.url} (the extension connects to it as usual)`);
  return { target: { url: app.server.url, token: app.config.token }, close: () => app.close() };
}

export async function runMcpCommand(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Anything the server would print goes to stderr: stdout is the JSON-RPC stream.
  console.log = console.error;
  console.info = console.error;
  let target = await readTarget(env);
  let closeServer: (() => Promise<void>) | undefined;
  const probe = await probeTarget(target);
  if (probe.state === 'refused') {
    say(
      `mimo mcp: ${target.url} answered HTTP ${probe.status}${probe.status === 401 ? ": the token was refused (set MIMO_TOKEN, or MIMO_DATA_DIR to the server's data folder)" : ''}`,
    );
    return 1;
  }
  if (probe.state === 'down') {
    if (env.MIMO_MCP_NO_START === '1') {
      say(
        `mimo mcp: no Mimo server at ${target.url} (${probe.reason}); start one with npm start, or unset MIMO_MCP_NO_START`,
      );
      return 1;
    }
    try {
      const own = await startOwnServer(env);
      target = own.target;
      closeServer = own.close;
    } catch (error) {
      say(`mimo mcp: cannot start a server: ${error instanceof StartupError ? error.message : String(error)}`);
      return 1;
    }
  }
  const bridge = await startStdioBridge({
    url: target.url,
    token: target.token,
    stdin: process.stdin,
    stdout: process.stdout,
    log: say,
  });
  const stop = () => void bridge.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await bridge.closed;
  await closeServer?.();
  return 0;
}
