// The benchmark helper runs and reports figures of the promised shape (small sizes here; the
// real 100 vs 10,000 run is `node --import tsx runtime/store/bench/task-store.bench.ts`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { benchTaskStoreAppend } from '../bench/task-store.bench.ts';

const s = suite('task store benchmark helper');

s('measures both store sizes side by side and returns their ratio', async () => {
  const result = await benchTaskStoreAppend({ small: 5, large: 400, samples: 60, warmup: 10 });
  for (const figures of [result.with100, result.with10000]) {
    assert.ok(figures.p50Ms > 0 && Number.isFinite(figures.p50Ms));
    assert.ok(figures.meanMs > 0 && Number.isFinite(figures.meanMs));
  }
  assert.is(result.with100.tasks, 5);
  assert.is(result.with10000.tasks, 400);
  assert.is(result.ratio, Number((result.with10000.p50Ms / result.with100.p50Ms).toFixed(3)));
  // A loose sanity bound: an append must not scale with the number of stored tasks.
  assert.ok(result.ratio < 5, `ratio ${result.ratio}`);
});

s.run();
