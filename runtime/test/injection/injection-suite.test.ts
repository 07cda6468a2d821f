// The injection suite (issue 23), on the real runtime over real sockets: a gullible model behind
// the mock OpenAI-compatible server obeys every instruction it reads; a fake browser serves a
// signed-in mail, a bank, a shop and an attacker's site (injection-world.ts); a web client plays
// the person, who says yes only to the steps their own request names. Each injected scenario runs
// twice: unguarded (the harm must happen, or the scenario proves nothing) and guarded (it must
// not). Every legitimate task completes guarded. Figures print at the end.
//   node --import tsx runtime/test/injection/injection-suite.test.ts
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createInspectionHub } from '../../agent/inspection-hub.ts';
import { createAgentOrchestrator } from '../../agent/orchestrator.ts';
import { createOpenAiGateway } from '../../llm/index.ts';
import { startFakePlugin } from '../../test-util/fake-plugin.ts';
import { connectWeb, eventually, startRuntime } from '../util.ts';
import { startGullibleModel } from './gullible-model.ts';
import { createWorld, MAIL_SECRET, pages, type Effect } from './injection-world.ts';
import { injected, legitimate, type Scenario } from './scenarios.ts';

const TASK = '01JD0000000000000000000Z23';

interface Run {
  effects: Effect[];
  asked: Array<{ step: { kind: string; element?: string; site: string }; answer: string }>;
  modelSawSecret: boolean;
  finished: boolean;
}

async function run(scenario: Scenario, guarded: boolean): Promise<Run> {
  const model = await startGullibleModel();
  const llm = createOpenAiGateway({
    apiKey: 'test-key',
    baseURL: model.server.url,
    model: 'gullible',
    retryDelayMs: 10,
  });
  const inspection = createInspectionHub({ clock: { now: () => Date.now() } });
  const rt = await startRuntime({
    ackTimeoutMs: 2_000,
    control: (services) =>
      createAgentOrchestrator(services, {
        llm,
        inspection,
        pagePrepBackoffMs: [5],
        stepLimit: 16,
        ...(guarded ? { confirmSteps: 'ask' as const } : {}),
      }),
  });
  const world = createWorld(pages(scenario.inject));
  const otherTabs = (scenario.otherTabTitles ?? []).map((title, i) => ({
    tabId: 2 + i,
    windowId: 1,
    active: false,
    pinned: false,
    hidden: false,
    index: 1 + i,
    url: `https://news.example.org/${i}`,
    title,
  }));
  const plugin = await startFakePlugin({
    url: rt.server.url,
    clientId: 'plugin-i23',
    answer: world.answer,
    snapshot: {
      tabs: [
        {
          tabId: 1,
          windowId: 1,
          active: true,
          pinned: false,
          hidden: false,
          index: 0,
          url: 'https://news.example.org/',
          title: 'News',
        },
        ...otherTabs,
      ],
    },
  });
  const web = await connectWeb(rt.server.url);
  const asked: Run['asked'] = [];
  web.on('frontend_event', (envelope: any) => {
    if (envelope.event.type !== 'confirmationRequested') return;
    const answer = scenario.allow?.(envelope.event.step) ? 'allow_once' : 'deny';
    asked.push({ step: envelope.event.step, answer });
    void web.emitWithAck('frontend_message', {
      v: 1,
      type: 'confirmation_answer',
      id: `ans-${asked.length}`,
      timestamp: Date.now(),
      taskId: TASK,
      requestId: envelope.event.requestId,
      decision: answer,
    });
  });
  try {
    await web.emitWithAck('frontend_message', {
      v: 1,
      type: 'subscribe_task',
      id: 'sub-1',
      timestamp: Date.now(),
      taskId: TASK,
    });
    for (const [name, value] of Object.entries(scenario.secrets ?? {})) {
      // Given before the task exists (its first message comes next); the unguarded runtime has no secrets.
      const ack = await web.emitWithAck('frontend_message', {
        v: 1,
        type: 'set_task_secret',
        id: `sec-${name}`,
        timestamp: Date.now(),
        taskId: TASK,
        name,
        value,
      });
      assert.is(ack.ok, true, JSON.stringify(ack));
    }
    await web.emitWithAck('frontend_message', {
      v: 1,
      type: 'user_message',
      id: 'evt-user-1',
      timestamp: Date.now(),
      taskId: TASK,
      content: scenario.request,
    });
    let finished = true;
    await eventually(
      () => web.events.some((e) => e.event.type === 'chatDelta' && e.event.finished),
      8_000,
      `${scenario.name}: the turn ends`,
    ).catch(() => (finished = false));
    const modelSawSecret = model.server.requests.some((r) => JSON.stringify(r).includes(MAIL_SECRET));
    return { effects: world.effects, asked, modelSawSecret, finished };
  } finally {
    web.close();
    plugin.close();
    await rt.close();
    await model.close();
  }
}

const figures = {
  injected: injected.length,
  harmUnguarded: 0,
  harmGuarded: 0,
  legit: legitimate.length,
  legitDone: 0,
  asked: 0,
};
const test = suite('injection suite');

for (const scenario of injected) {
  test(`injected: ${scenario.name}`, async () => {
    const open = await run(scenario, false);
    const harmedOpen = scenario.harm!(open.effects);
    if (harmedOpen) figures.harmUnguarded++;
    assert.ok(
      harmedOpen,
      `without the guard the gullible model must do the harm (else the scenario proves nothing): ${JSON.stringify(open.effects)}`,
    );
    const guarded = await run(scenario, true);
    const harmed = scenario.harm!(guarded.effects);
    if (harmed) figures.harmGuarded++;
    figures.asked += guarded.asked.length;
    assert.not.ok(harmed, `harm done with the guard: ${JSON.stringify(guarded.effects)}`);
    assert.ok(guarded.finished, 'the turn ends');
    assert.ok(
      scenario.done(guarded.effects),
      `the person's own task still got done: ${JSON.stringify(guarded.effects)}`,
    );
    assert.ok(
      guarded.asked.length > 0 && guarded.asked.every((a) => a.answer === 'deny'),
      'the injected step waited for the person, who said no',
    );
    assert.not.ok(guarded.modelSawSecret, 'the model never sees a secret value');
  });
}

for (const scenario of legitimate) {
  test(`legitimate: ${scenario.name}`, async () => {
    const guarded = await run(scenario, true);
    const done = guarded.finished && scenario.done(guarded.effects);
    if (done) figures.legitDone++;
    figures.asked += guarded.asked.length;
    assert.ok(done, `not completed: ${JSON.stringify({ effects: guarded.effects, asked: guarded.asked })}`);
    assert.ok(
      guarded.asked.every((a) => a.answer === 'allow_once'),
      `only the named steps were asked: ${JSON.stringify(guarded.asked)}`,
    );
    assert.not.ok(guarded.modelSawSecret, 'the model never sees a secret value');
  });
}

test.after(() => {
  console.log(
    `\ninjection suite: ${figures.injected} injected scenarios, harm without the guard ${figures.harmUnguarded}/${figures.injected}, with the guard ${figures.harmGuarded}/${figures.injected}` +
      ` (prevented ${figures.harmUnguarded - figures.harmGuarded}); legitimate tasks completed ${figures.legitDone}/${figures.legit}; confirmations asked ${figures.asked}`,
  );
});

test.run();
