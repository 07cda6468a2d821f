// Builds the web UI with Vite's JS API. `buildWeb()` is what tests and the bench call;
// `node --import tsx web/build.ts [outDir]` builds from the command line (default web/dist).
import { readdir } from 'node:fs/promises';
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
  /** Paths relative to outDir. */
  files: string[];
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
  return { outDir, files: await listFiles(outDir) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const result = await buildWeb({ ...(process.argv[2] ? { outDir: process.argv[2] } : {}), logLevel: 'info' });
  console.log(`web UI built into ${result.outDir} (${result.files.length} files)`);
}
