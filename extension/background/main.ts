// Service worker entry: real browser, real socket.io-client, real clock.
import { nanoid } from 'nanoid';
import { io } from 'socket.io-client';
import { getBrowser } from '../shared/polyfill-browser.ts';
import { realSleep } from '../shared/retry.ts';
import { createBackground } from './background-app.ts';
import type { ConnectSocket } from './server-link.ts';

createBackground({
  browser: getBrowser(),
  connect: ((url, options) => io(url, options)) as ConnectSocket,
  fetch: (input, init) => fetch(input, init),
  timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
  now: () => Date.now(),
  sleep: realSleep,
  newId: () => nanoid(),
  userAgent: navigator.userAgent,
  log: (message) => console.info(`[mimo] ${message}`),
});
