// The soak's heap judgement: a least-squares line through heap samples (after GC) taken at rest,
// so a leak shows as a slope across load cycles while the noise of one sample (±10 %) averages out.

export interface HeapSample {
  /** Seconds since the soak started. */
  atS: number;
  heapMB: number;
}

export interface HeapTrend {
  samples: number;
  meanMB: number;
  /** MB per minute (least squares); NaN with fewer than two distinct times. */
  slopeMBPerMin: number;
  /** Standard error of the slope (MB per minute); NaN with fewer than three samples. */
  slopeStdErrMBPerMin: number;
  /** slope x span / mean: how much the line says the heap grew over the samples' span (0.1 = 10 %). */
  growthOverSpan: number;
  spanS: number;
}

export function heapTrend(samples: readonly HeapSample[]): HeapTrend {
  const n = samples.length;
  const meanX = samples.reduce((s, p) => s + p.atS, 0) / n;
  const meanY = samples.reduce((s, p) => s + p.heapMB, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of samples) {
    sxx += (p.atS - meanX) ** 2;
    sxy += (p.atS - meanX) * (p.heapMB - meanY);
  }
  const slope = sxx > 0 ? sxy / sxx : NaN; // MB per second
  let sse = 0;
  for (const p of samples) sse += (p.heapMB - (meanY + slope * (p.atS - meanX))) ** 2;
  const stdErr = n > 2 && sxx > 0 ? Math.sqrt(sse / (n - 2) / sxx) : NaN;
  const spanS = n > 0 ? Math.max(...samples.map((p) => p.atS)) - Math.min(...samples.map((p) => p.atS)) : 0;
  return {
    samples: n,
    meanMB: meanY,
    slopeMBPerMin: slope * 60,
    slopeStdErrMBPerMin: stdErr * 60,
    growthOverSpan: (slope * spanS) / meanY,
    spanS,
  };
}
