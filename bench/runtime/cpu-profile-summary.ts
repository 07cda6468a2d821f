// Where the time of a V8 CPU profile (node --cpu-prof, e.g. from agent-loop-compare.bench.ts
// with MIMO_BENCH_CPU_PROF) went: self time by area (XState, our folders, node_modules, Node
// internals, GC, idle) and the top functions by self time.
//
//   node --import tsx bench/runtime/cpu-profile-summary.ts file.cpuprofile [top=25] [browser actions in the profile]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function areaOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  if (url.includes('/node_modules/xstate/')) return 'xstate';
  if (url.includes('/node_modules/')) return `node_modules/${url.split('/node_modules/')[1]!.split('/')[0]}`;
  const ours = url.match(/\/(runtime|machines|transport|spec|bench)\/([^/]+)/);
  if (ours)
    return ours[1] === 'runtime' || ours[1] === 'transport' ? `${ours[1]}/${ours[2]!.replace(/\.ts$/, '')}` : ours[1]!;
  if (url.startsWith('node:') || url === '') return 'node internals';
  return 'other';
}

/** `actions`: also each area's self time per browser action (µs), for profiles of runs that differ in length. */
export function summarize(profile: Profile, top = 25, actions?: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++)
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + micros);
    if (area === '(idle)') continue;
    busy += micros;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + micros);
  }
  const share = (m: number) => ((100 * m) / Math.max(1, busy)).toFixed(1).padStart(5);
  return {
    busyMs: busy / 1000,
    areas: [...areas]
      .filter(([a]) => a !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .map(
        ([area, m]) => `${share(m)} %  ${actions ? `${(m / actions).toFixed(0).padStart(5)} µs/action  ` : ''}${area}`,
      ),
    functions: [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, m]) => `${share(m)} %  ${f}`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpu-profile-summary.ts file.cpuprofile [top]');
  const actions = process.argv[4] ? Number(process.argv[4]) : undefined;
  const summary = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(process.argv[3] ?? 25), actions);
  const perAction = actions ? `, ${((summary.busyMs * 1000) / actions).toFixed(0)} µs per action` : '';
  console.log(`busy ${summary.busyMs.toFixed(0)} ms (self time, idle excluded)${perAction}\nby area:`);
  for (const line of summary.areas.slice(0, 30)) console.log(`  ${line}`);
  console.log('top functions:');
  for (const line of summary.functions) console.log(`  ${line}`);
}
