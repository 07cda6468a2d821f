// Content script entry (every page, top frame). Tears down on pagehide and starts again when
// the page comes back from the back/forward cache.
import { getBrowser } from '../shared/polyfill-browser.ts';
import { startContentApp } from './content-app.ts';
import type { ContentApp } from './content-app.ts';

const browser = getBrowser();
let app: ContentApp | null = startContentApp({ browser, window, document });

window.addEventListener('pagehide', () => {
  app?.stop();
  app = null;
});
window.addEventListener('pageshow', (event) => {
  if (event.persisted && !app) app = startContentApp({ browser, window, document });
});
