// The options page: server URL, token, extra web UI patterns, CDP on/off, the idle timings; and the connection
// status the background reports.
import type { BrowserApi } from '../shared/browser-api.ts';
import type { ConnectionStatus } from '../shared/internal-messages.ts';
import { readSettings, writeSettings } from '../shared/settings.ts';
import { showPairingQuestion } from './pairing-question.ts';
import { describeConnection } from './status-text.ts';

export async function startOptionsPage(browser: BrowserApi, document: Document): Promise<void> {
  void showPairingQuestion(browser, document, document.location.hash);
  const form = document.getElementById('settings') as HTMLFormElement;
  const field = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const settings = await readSettings(browser.storage.local);
  field<HTMLInputElement>('serverUrl').value = settings.serverUrl;
  field<HTMLInputElement>('token').value = settings.token;
  field<HTMLTextAreaElement>('webUiPatterns').value = settings.webUiPatterns.join('\n');
  field<HTMLInputElement>('useCdp').checked = settings.useCdp;
  field<HTMLInputElement>('debuggerIdleSeconds').value = String(settings.debuggerIdleSeconds);
  field<HTMLInputElement>('groupCollapseSeconds').value = String(settings.groupCollapseSeconds);

  async function showStatus(): Promise<void> {
    const status = (await browser.runtime
      .sendMessage({ kind: 'get_status' })
      .catch(() => null)) as ConnectionStatus | null;
    const described = describeConnection(status);
    field('status').textContent = described.text;
    field('status').dataset.state = described.state;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    field('saved').textContent = '';
    field('error').textContent = '';
    void writeSettings(browser.storage.local, {
      serverUrl: field<HTMLInputElement>('serverUrl').value.trim(),
      token: field<HTMLInputElement>('token').value,
      webUiPatterns: field<HTMLTextAreaElement>('webUiPatterns')
        .value.split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      useCdp: field<HTMLInputElement>('useCdp').checked,
      debuggerIdleSeconds: field<HTMLInputElement>('debuggerIdleSeconds').valueAsNumber,
      groupCollapseSeconds: field<HTMLInputElement>('groupCollapseSeconds').valueAsNumber,
    }).then((outcome) => {
      if (outcome.ok) field('saved').textContent = 'Saved.';
      else field('error').textContent = outcome.error.message;
      setTimeout(() => void showStatus(), 500);
    });
  });
  await showStatus();
  setInterval(() => void showStatus(), 2_000);
}
