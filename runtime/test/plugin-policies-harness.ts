// The set-up the seed 001 §4.1 fault-table tests share (plugin-policies.test.ts,
// plugin-selection.test.ts): a runtime with the agent orchestrator, a fake plugin's page answers,
// user messages, and waits on the server's action actors.
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import { createInspectionHub } from '../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../agent/orchestrator.ts';
import type { LlmGateway } from '../llm/llm-types.ts';
import { type FakePlugin, pageAnswerer } from '../test-util/fake-plugin.ts';
import { eventually, startRuntime, type TestRuntime } from './util.ts';
import { actionStateOf } from '../../machines/index.ts';

export const TASK = '01JD0000000000000000000P01';
export type PolicyContext = { rt?: TestRuntime; dir?: string; closers: Array<() => void> };

/** A suite whose runtime, peers and folder are closed after each test. */
export function policySuite(name: string) {
  const test = suite<PolicyContext>(name, { closers: [] });
  test.after.each(async (ctx) => {
    for (const close of ctx.closers.splice(0)) close();
    await ctx.rt?.close();
    ctx.rt = undefined;
    if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
    ctx.dir = undefined;
  });
  return test;
}

export const page = pageAnswerer();

export function runtimeWith(llm: LlmGateway, extra: Parameters<typeof startRuntime>[0] = {}) {
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  return startRuntime({ ...extra, control: (services) => createAgentOrchestrator(services, { llm, inspection }) });
}
export const userMessage = (content: string, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type: 'user_message',
  id: `evt-${Math.random().toString(36).slice(2)}`,
  timestamp: Date.now(),
  taskId: TASK,
  content,
  ...extra,
});
export const names = (plugin: FakePlugin) => plugin.received.map((f) => Object.keys(f.action)[0]);
export const statusSeen = (web: { events: any[] }, status: string) => () =>
  web.events.some((e) => e.event.type === 'taskStatus' && e.event.status === status);

/** Waits until the action of the plugin's last frame is in `state` on the server, then moves the clock. */
export async function whenLast(rt: TestRuntime, plugin: FakePlugin, name: string, state: string): Promise<string> {
  await eventually(() => names(plugin).at(-1) === name, 10_000, `${name} dispatched`);
  const id = plugin.received.at(-1)!.id;
  await eventually(
    () => {
      const actor = rt.server.scheduler.actorOf(id);
      return actor !== undefined && actionStateOf(actor.getSnapshot()) === state;
    },
    10_000,
    `${name} ${state}`,
  );
  return id;
}
