// Builds the unpacked extension into extension/dist (or `outDir`) with esbuild:
// background.js (ESM service worker), content.js and page-agent.js (IIFE), options.html/js,
// manifest.json. Run: node --import tsx extension/build.ts
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createManifest } from './manifest.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_OUT_DIR = join(here, 'dist');

export interface BuildExtensionOptions {
  outDir?: string;
  /** externally_connectable.matches; default manifest.ts DEFAULT_WEB_UI_MATCHES. */
  webUiMatches?: readonly string[];
  /** Default true. */
  minify?: boolean;
  sourcemap?: boolean;
}

export interface BuiltExtension {
  outDir: string;
  files: string[];
}

export async function buildExtension(options: BuildExtensionOptions = {}): Promise<BuiltExtension> {
  const outDir = options.outDir ?? DEFAULT_OUT_DIR;
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const common = {
    bundle: true,
    platform: 'browser' as const,
    target: 'chrome116',
    minify: options.minify ?? true,
    sourcemap: options.sourcemap ? ('linked' as const) : false,
    logLevel: 'warning' as const,
    legalComments: 'none' as const,
    define: { 'process.env.NODE_ENV': '"production"' },
  };
  await Promise.all([
    build({ ...common, entryPoints: { background: join(here, 'background/main.ts') }, format: 'esm', outdir: outDir }),
    build({ ...common, entryPoints: { content: join(here, 'content/main.ts') }, format: 'iife', outdir: outDir }),
    build({
      ...common,
      entryPoints: { 'page-agent': join(here, 'page/page-agent.ts') },
      format: 'iife',
      outdir: outDir,
    }),
    build({ ...common, entryPoints: { options: join(here, 'options/main.ts') }, format: 'esm', outdir: outDir }),
  ]);
  await copyFile(join(here, 'options/options.html'), join(outDir, 'options.html'));
  const pkg = JSON.parse(await readFile(join(here, '../package.json'), 'utf8')) as { version: string };
  const manifest = createManifest({
    version: pkg.version,
    ...(options.webUiMatches ? { webUiMatches: options.webUiMatches } : {}),
  });
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    outDir,
    files: ['manifest.json', 'background.js', 'content.js', 'page-agent.js', 'options.html', 'options.js'],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildExtension({
    minify: !process.argv.includes('--no-minify'),
    sourcemap: process.argv.includes('--sourcemap'),
  });
  console.log(`extension built in ${built.outDir}`);
}
