// Vite build plugin: engine.io-client's Socket looks transports up in a table that names all of
// them (WebSocket, HTTP long-polling, WebTransport), so a bundler keeps all three although the
// UI only ever uses `transports: ['websocket']` (ARCHITECTURE.md: clients use websocket only).
// This swaps that table for one holding the WebSocket transport, which keeps the first-load JS
// under its 40 KB gzip budget. Production builds only; the dev server is left as it is.
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = '\0mimo-websocket-only-transports:';

export function websocketOnlyTransports(): Plugin {
  return {
    name: 'mimo:websocket-only-transports',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== './transports/index.js' || !importer) return null;
      if (!/engine\.io-client[\\/]build[\\/]esm[\\/][^\\/]+\.js$/.test(importer)) return null;
      return PREFIX + join(dirname(importer), 'transports', 'websocket.js');
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const websocketModule = id.slice(PREFIX.length);
      return `import { WS } from ${JSON.stringify(websocketModule)};\nexport const transports = { websocket: WS };\n`;
    },
  };
}
