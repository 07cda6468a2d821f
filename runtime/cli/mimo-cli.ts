// The `mimo` command: `mimo` or `mimo start` runs the server (as `npm start`), `mimo mcp` speaks
// MCP over stdio (see mcp-command.ts).
const [command = 'start', ...rest] = process.argv.slice(2);

const usage = `usage: mimo [start]   the Mimo server on its embedded defaults
       mimo mcp       MCP over stdio, bridged to a running Mimo (MIMO_URL, MIMO_TOKEN or MIMO_DATA_DIR), or to one it starts`;

if (command === 'mcp' && rest.length === 0) {
  const { runMcpCommand } = await import('./mcp-command.ts');
  process.exit(await runMcpCommand());
} else if (command === 'start' && rest.length === 0) {
  await import('../main.ts');
} else {
  process.stderr.write(
    `${command === 'help' || command === '--help' ? '' : `mimo: unknown command ${[command, ...rest].join(' ')}\n`}${usage}\n`,
  );
  process.exit(command === 'help' || command === '--help' ? 0 : 2);
}
