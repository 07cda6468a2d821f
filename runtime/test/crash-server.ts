// A runtime in a child process for the kill -9 test: persistent store under argv[2], a scripted
// LLM that opens a page (so the task is running with an action in flight). Prints {"url"}.
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import { createServer } from '../server.ts';
import { callTool, scriptedLlm } from './scripted-llm.ts';
import { testConfig } from './util.ts';

const dir = process.argv[2]!;
const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
const server = await createServer({
  config: testConfig(dir),
  log: () => {},
  control: (services) => createAgentOrchestrator(services, { llm: scriptedLlm([() => callTool('browser_open', { url: 'http://127.0.0.1:9/' })]), inspection }),
});
console.log(JSON.stringify({ url: server.url }));
