// House rules for machines/ that a reader would otherwise check by hand: imports only
// xstate (and siblings), no clock or timer of its own, every wait a named delay, each
// machine built with setup().createMachine() under a stable exported id, index.ts only
// re-exports, files stay small.
import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyStateMachine } from 'xstate';
import * as machines from '../index.ts';
import type {
  ActionContext,
  ActionEvent,
  PagePrepContext,
  PagePrepEvent,
  PluginUiContext,
  PluginUiEvent,
  RunContext,
  RunEvent,
  TaskContext,
  TaskEvent,
} from '../index.ts';

const dir = new URL('../', import.meta.url);
const sources = readdirSync(dir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }));
/** spec/ (repo root): the seeds' spec facts, shared with machines, contracts, runtime, web and extension. */
const specDir = new URL('../../spec/', import.meta.url);
const specSources = readdirSync(specDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name: `spec/${name}`, text: readFileSync(new URL(name, specDir), 'utf8') }));
const importsOf = (text: string) =>
  [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

/** Source without comments, so prose may mention setTimeout. */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/.*$/gm, '');

const rules = suite('machines/ definitions');

rules('the folder holds the five machine files and index.ts', () => {
  const names = sources.map((s) => s.name);
  const expected = ['task', 'action', 'plugin-ui', 'page-prep', 'run'].map((m) => `${m}.machine.ts`);
  for (const name of [...expected, 'index.ts']) {
    assert.ok(names.includes(name), `missing ${name}`);
  }
});

rules('imports nothing but xstate, sibling files and the top-level spec/', () => {
  for (const { name, text } of sources) {
    for (const spec of importsOf(text)) {
      assert.ok(spec === 'xstate' || /^(\.\/|\.\.\/spec\/)[a-z0-9-.]+\.ts$/.test(spec), `${name} imports "${spec}"`);
    }
    assert.not.match(code(text), /\bimport\s*\(/, `${name} uses a dynamic import`);
  }
});

rules('spec/ is dependency-free (not even xstate): web and extension import it as is', () => {
  assert.ok(specSources.length >= 4, 'spec files found');
  for (const { name, text } of specSources) {
    for (const spec of importsOf(text)) assert.ok(/^\.\/[a-z0-9-.]+\.ts$/.test(spec), `${name} imports "${spec}"`);
  }
});

rules('no timer, clock or randomness of their own', () => {
  for (const { name, text } of [...sources, ...specSources]) {
    const forbidden = /\b(setTimeout|setInterval|setImmediate|Date\.now|new Date|performance\.now|Math\.random)\b/;
    assert.not.match(code(text), forbidden, name);
  }
});

rules('every *.machine.ts uses setup().createMachine() and exports a stable id', () => {
  const ids: Record<string, [AnyStateMachine, string]> = {
    'action.machine.ts': [machines.actionMachine, machines.actionMachineId],
    'task.machine.ts': [machines.taskMachine, machines.taskMachineId],
    'plugin-ui.machine.ts': [machines.pluginUiMachine, machines.pluginUiMachineId],
    'page-prep.machine.ts': [machines.pagePrepMachine, machines.pagePrepMachineId],
    'run.machine.ts': [machines.runMachine, machines.runMachineId],
  };
  for (const { name, text } of sources.filter((s) => s.name.endsWith('.machine.ts'))) {
    assert.match(code(text), /=\s*setup\(\{[\s\S]*\}\)\.createMachine\(\{/, `${name} is not setup().createMachine()`);
    const [machine, id] = ids[name]!;
    assert.is(machine.id, id, name);
  }
  assert.equal(
    Object.values(ids).map(([, id]) => id),
    ['action', 'task', 'pluginUi', 'pagePrep', 'run'],
  );
});

rules('every wait is an `after` with a named delay the machine defines, or a deadline (the action machine)', () => {
  const { actionMachine, taskMachine, pluginUiMachine, pagePrepMachine, runMachine } = machines;
  // The action machine's waits are deadlines on the clock: each waiting state takes DEADLINE
  // (armed with armDeadline), and it has no `after` at all.
  for (const state of ['awaitingAck', 'executing', 'retryWait'])
    assert.ok(actionMachine.root.states[state]!.transitions.has('DEADLINE'), `${state} takes DEADLINE`);
  assert.not.ok(actionMachine.root.states.idle!.transitions.has('DEADLINE'), 'idle waits for nothing');
  assert.equal(Object.keys(actionMachine.implementations.delays), []);
  const all = [actionMachine, taskMachine, pluginUiMachine, pagePrepMachine, runMachine];
  let waits = 0;
  for (const machine of all) {
    const delays = Object.keys(machine.implementations.delays);
    const walk = (node: AnyStateMachine['root']) => {
      for (const eventType of node.transitions.keys()) {
        if (!eventType.startsWith('xstate.after.')) continue;
        waits += 1;
        const name = eventType.split('.')[2]!;
        assert.ok(/^[A-Z_]+$/.test(name) && delays.includes(name), `${node.id} waits on an unnamed delay "${name}"`);
      }
      for (const child of Object.values(node.states) as Array<AnyStateMachine['root']>) walk(child);
    };
    walk(machine.root);
  }
  assert.is(waits, 3, 'two capture backoffs, RUN_TIMEOUT');
});

rules('index.ts only re-exports; files stay under ~300 lines', () => {
  const index = sources.find((s) => s.name === 'index.ts')!.text;
  for (const line of index.split('\n').filter((l) => l.trim() !== '')) {
    assert.match(line, /^export \* from '(\.\/|\.\.\/spec\/)[a-z0-9-.]+\.ts';$/);
  }
  for (const { name, text } of [...sources, ...specSources]) {
    assert.ok(text.split('\n').length <= 300, `${name} has ${text.split('\n').length} lines`);
  }
});

rules('events and context types are exported for every machine', () => {
  // Compile-time: these assignments fail typechecking if a type is missing or wrong.
  const events: [ActionEvent, TaskEvent, PluginUiEvent, PagePrepEvent, RunEvent] = [
    { type: 'ACK' },
    { type: 'RESUME' },
    { type: 'USER_INPUT' },
    { type: 'RESTORED' },
    { type: 'CANCEL' },
  ];
  const contexts: Array<keyof (ActionContext & TaskContext & PluginUiContext & PagePrepContext & RunContext)> = [
    'actionId',
    'taskId',
    'actionInFlight',
    'tabId',
    'runId',
  ];
  assert.is(events.length + contexts.length, 10);
});

rules.run();
