// Options page entry.
import { getBrowser } from '../shared/polyfill-browser.ts';
import { startOptionsPage } from './options-page.ts';

void startOptionsPage(getBrowser(), document);
