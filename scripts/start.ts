// `npm start`: builds the web UI and the extension when needed, then starts the server
// (runtime/main.ts) on its embedded defaults.
import { buildWebAndExtensionIfStale } from './build-if-stale.ts';

await buildWebAndExtensionIfStale();
await import('../runtime/main.ts');
