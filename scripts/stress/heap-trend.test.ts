import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { heapTrend } from './heap-trend.ts';

const test = suite('heap trend');

test('a flat heap with noise has a slope near 0; a leak has its slope', () => {
  const noise = [0.9, -1.1, 1.3, -0.7, 0.2, -0.4, 1.0, -1.2];
  const flat = heapTrend(noise.map((e, i) => ({ atS: i * 10, heapMB: 50 + e })));
  assert.ok(Math.abs(flat.slopeMBPerMin) < 1, String(flat.slopeMBPerMin));
  assert.ok(Math.abs(flat.growthOverSpan) < 0.02);
  const leak = heapTrend(noise.map((e, i) => ({ atS: i * 10, heapMB: 50 + i * 2 + e })));
  assert.ok(Math.abs(leak.slopeMBPerMin - 12) < 1, String(leak.slopeMBPerMin));
  assert.ok(leak.growthOverSpan > 0.2);
  assert.ok(leak.slopeStdErrMBPerMin > 0 && leak.slopeStdErrMBPerMin < 1);
});

test('one sample has no slope', () => {
  assert.ok(Number.isNaN(heapTrend([{ atS: 1, heapMB: 3 }]).slopeMBPerMin));
});

test.run();
