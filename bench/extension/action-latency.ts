// p50 / p90 latency of click, fill (browser_type), select, press and screenshot on corpus pages
// (MDN form examples) in a background task tab of a plain Chromium (the realistic mode: no
// Playwright emulation), measured from the server side of the socket: browser_action sent ->
// browser_action_result received, through the real extension. Absolute figures for the issue's
// report, not a pass/fail:
//   node --import tsx bench/extension/action-latency.ts          (MIMO_BENCH_ROUNDS=30 by default)
import { serveCorpus } from '../../extension/test/e2e/corpus-site.ts';
import { p50, startE2eEnv } from '../../extension/test/e2e/e2e-util.ts';

const ROUNDS = Number(process.env.MIMO_BENCH_ROUNDS ?? 30);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

export async function benchActionLatency(
  rounds = ROUNDS,
): Promise<Record<string, { p50: number; p90: number; n: number }>> {
  const env = await startE2eEnv('realistic');
  const corpus = await serveCorpus();
  try {
    const driver = env.driver;
    const open = async (path: string) => {
      const started = await driver.send('task_start', { url: corpus.url + path, reuseExistingTab: true });
      if (started.result.status !== 'success') throw new Error(JSON.stringify(started.result));
      const tabId = started.result.result!.tabId as number;
      await driver.send('browser_debugger_attach', { tabId });
      await driver.send('browser_wait_for_loaded', { tabId });
      return tabId;
    };
    const times: Record<string, number[]> = { click: [], fill: [], press: [], select: [], screenshot: [] };
    const timed = async (name: string, run: () => ReturnType<typeof driver.send>) => {
      const outcome = await run();
      if (outcome.result.status !== 'success') throw new Error(`${name}: ${JSON.stringify(outcome.result.error)}`);
      times[name]!.push(outcome.totalMs);
    };

    let tabId = await open('/mdn-forms/basic-input-examples/index.html');
    for (let i = 0; i <= rounds; i++) {
      await timed('click', () => driver.send('browser_click', { tabId, xpath: '//*[@id="text"]' }));
      await timed('fill', () => driver.send('browser_type', { tabId, xpath: '//*[@id="text"]', text: `round ${i}` }));
      await timed('press', () => driver.send('browser_press', { tabId, key: 'ArrowLeft' }));
      await timed('screenshot', () => driver.send('browser_screenshot', { tabId }));
    }
    tabId = await open('/mdn-forms/select-example/select-multiple.html');
    for (let i = 0; i <= rounds; i++) {
      await timed('select', () =>
        driver.send('browser_select', {
          tabId,
          xpath: '//*[@id="pet-select"]',
          values: i % 2 ? ['Dog', 'parrot'] : ['Cat'],
        }),
      );
    }
    const out: Record<string, { p50: number; p90: number; n: number }> = {};
    // The first round warms up (page agent injection, CDP attach): left out.
    for (const [name, values] of Object.entries(times)) {
      const warm = values.slice(1);
      out[name] = {
        p50: Math.round(p50(warm) * 10) / 10,
        p90: Math.round(percentile(warm, 0.9) * 10) / 10,
        n: warm.length,
      };
    }
    return out;
  } finally {
    await corpus.close();
    await env.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchActionLatency();
  console.log('action latency in a background tab (realistic Chromium, corpus pages), ms:');
  for (const [name, r] of Object.entries(results))
    console.log(`  ${name.padEnd(10)} p50 ${String(r.p50).padStart(6)}  p90 ${String(r.p90).padStart(6)}  (n=${r.n})`);
  process.exit(0);
}
