// Builds the web UI with Vite's JS API. `buildWeb()` is what tests and the bench call;
// `node --import tsx web/build.ts [outDir]` builds from the command line (default web/dist).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

export interface BuildWebOptions {
  /** Where to write (default web/dist). Emptied first. */
  outDir?: string;
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
}

export interface BuildWebResult {
  outDir: string;
  /** Paths relative to outDir (the precompressed .br / .gz twins included). */
  files: string[];
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(?:js|css|html|svg|json)$/;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every text asset, so the server
 * sends them as they are (runtime/web-ui.ts) instead of compressing on each request. A twin
 * that would not be smaller is not written.
 */
export async function precompress(outDir: string, files: readonly string[]): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = await readFile(join(outDir, file));
    const br = await brotli(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    const gz = await gzipAsync(raw, { level: 9 });
    if (br.length < raw.length) {
      await writeFile(join(outDir, `${file}.br`), br);
      written.push(`${file}.br`);
    }
    if (gz.length < raw.length) {
      await writeFile(join(outDir, `${file}.gz`), gz);
      written.push(`${file}.gz`);
    }
  }
  return written;
}

const configFile = fileURLToPath(new URL('./vite.config.ts', import.meta.url));
export const defaultOutDir = fileURLToPath(new URL('./dist', import.meta.url));

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, base)));
    else out.push(relative(base, path));
  }
  return out.sort();
}

export async function buildWeb(options: BuildWebOptions = {}): Promise<BuildWebResult> {
  const outDir = resolve(options.outDir ?? defaultOutDir);
  await build({
    configFile,
    logLevel: options.logLevel ?? 'warn',
    build: { outDir, emptyOutDir: true },
  });
  await precompress(outDir, await listFiles(outDir));
  return { outDir, files: await listFiles(outDir) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const result = await buildWeb({ ...(process.argv[2] ? { outDir: process.argv[2] } : {}), logLevel: 'info' });
  console.log(`web UI built into ${result.outDir} (${result.files.length} files)`);
}
