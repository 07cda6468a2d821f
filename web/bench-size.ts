// The web UI's JavaScript size after gzip: what a first visit downloads (the entry and the
// chunks index.html preloads) and the on-demand chunks (machine definitions, Stately Inspector).
// `node --import tsx web/bench-size.ts` builds into a temp folder and prints the table.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildWeb } from './build.ts';

export const WEB_JS_GZIP_TARGET_BYTES = 40 * 1024;

export interface BundleFile {
  file: string;
  bytes: number;
  gzipBytes: number;
  /** Loaded by index.html itself (entry script or modulepreload), not on demand. */
  initial: boolean;
}

export interface WebBundleSize {
  files: BundleFile[];
  initialGzipBytes: number;
  totalGzipBytes: number;
  cssGzipBytes: number;
  targetBytes: number;
  withinTarget: boolean;
}

/** Measures an existing build in `outDir`, or builds one into a temp folder first. */
export async function measureWebBundle(options: { outDir?: string } = {}): Promise<WebBundleSize> {
  const temp = options.outDir ? null : await mkdtemp(join(tmpdir(), 'mimo-web-size-'));
  try {
    const { outDir, files } = options.outDir
      ? { outDir: options.outDir, files: null }
      : await buildWeb({ outDir: temp!, logLevel: 'silent' });
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    const referenced = new Set([...html.matchAll(/(?:src|href)="\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
    const list = files ?? [...referenced];
    const measured: BundleFile[] = [];
    let cssGzipBytes = 0;
    for (const file of list) {
      if (!file.endsWith('.js') && !file.endsWith('.css')) continue;
      const bytes = await readFile(join(outDir, file));
      const gzipBytes = gzipSync(bytes, { level: 9 }).length;
      if (file.endsWith('.css')) cssGzipBytes += gzipBytes;
      else measured.push({ file, bytes: bytes.length, gzipBytes, initial: referenced.has(file) });
    }
    const initialGzipBytes = measured.filter((f) => f.initial).reduce((n, f) => n + f.gzipBytes, 0);
    return {
      files: measured.sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzipBytes - a.gzipBytes),
      initialGzipBytes,
      totalGzipBytes: measured.reduce((n, f) => n + f.gzipBytes, 0),
      cssGzipBytes,
      targetBytes: WEB_JS_GZIP_TARGET_BYTES,
      withinTarget: initialGzipBytes < WEB_JS_GZIP_TARGET_BYTES,
    };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function printWebBundle(size: WebBundleSize): void {
  for (const f of size.files)
    console.log(
      `  ${f.initial ? 'initial  ' : 'on demand'}  ${kb(f.gzipBytes).padStart(9)} gzip  ${kb(f.bytes).padStart(9)} raw  ${f.file}`,
    );
  console.log(
    `  web JS gzip: ${kb(size.initialGzipBytes)} on first load (target < ${kb(size.targetBytes)}: ${size.withinTarget ? 'ok' : 'OVER'}), ` +
      `${kb(size.totalGzipBytes)} with on-demand chunks; CSS ${kb(size.cssGzipBytes)}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printWebBundle(await measureWebBundle());
}
