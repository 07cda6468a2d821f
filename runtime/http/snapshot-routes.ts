// Seed 001 §2.2: GET /api/snapshot[?clientId=]. Never cached. Without a clientId: the snapshot
// of the client that synced last; `connected` is that client's socket presence (with no
// snapshot at all: whether any extension is connected).
import type { Hono } from 'hono';
import { okResponse } from './envelope-response.ts';
import type { HttpAppDeps, HttpEnv } from './http-types.ts';
import { onlyAllow } from './method-not-allowed.ts';

export function registerSnapshotRoutes(
  app: Hono<HttpEnv>,
  deps: Pick<HttpAppDeps, 'snapshots' | 'registry' | 'isConnected'>,
): void {
  app.get('/api/snapshot', (c) => {
    const requested = c.req.query('clientId');
    const clientId = requested === undefined || requested === '' ? deps.snapshots.latestClientId() : requested;
    const connected =
      clientId === undefined ? deps.registry.list().some((e) => e.socketConnected) : deps.isConnected(clientId);
    return okResponse(c, deps.snapshots.current(clientId, { connected }), { 'Cache-Control': 'no-store' });
  });
  onlyAllow(app, '/api/snapshot', ['GET']);
}
