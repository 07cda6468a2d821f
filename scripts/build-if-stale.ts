// Builds the web UI and the extension when their output is missing or older than their sources.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'test' || name.startsWith('.')) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(path) : stat.mtimeMs);
  }
  return newest;
}

async function buildIfStale(
  name: string,
  sourceDirs: string[],
  output: string,
  build: () => Promise<unknown>,
): Promise<void> {
  const outputTime = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sourceTime = Math.max(...sourceDirs.map((d) => newestMtime(join(root, d))));
  if (outputTime >= sourceTime) return;
  console.log(`Building ${name}...`);
  await build();
}

export async function buildWebAndExtensionIfStale(): Promise<{ extensionDir: string; webDir: string }> {
  await buildIfStale(
    'the web UI',
    ['web', 'transport/contracts', 'machines'],
    join(root, 'web/dist/index.html'),
    async () => {
      const { buildWeb } = await import('../web/build.ts');
      await buildWeb();
    },
  );
  await buildIfStale(
    'the browser extension',
    ['extension', 'transport/contracts', 'machines'],
    join(root, 'extension/dist/manifest.json'),
    async () => {
      const { buildExtension } = await import('../extension/build.ts');
      await buildExtension();
    },
  );
  return { extensionDir: join(root, 'extension/dist'), webDir: join(root, 'web/dist') };
}
