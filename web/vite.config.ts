// Vite config for the web UI: root web/, output web/dist, the Preact preset, and in dev a proxy of
// /api and /socket.io (WebSocket) to the server on :6006 (MIMO_SERVER_URL overrides it).
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { websocketOnlyTransports } from './vite-websocket-only.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const server = process.env.MIMO_SERVER_URL ?? 'http://localhost:6006';

export default defineConfig({
  root,
  base: '/',
  plugins: [preact({ devtoolsInProd: false, prefreshEnabled: true }), websocketOnlyTransports()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/socket.io': { target: server, ws: true, changeOrigin: true },
    },
  },
  preview: { port: 3000 },
});
