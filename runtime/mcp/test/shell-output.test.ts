// browser-shell output limits: every reply is valid JSON under 64 KB; a snapshot that does not fit
// gives up elements first (out of view before in view), then page text, and says what it cut.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DomIndexElement } from '../../../transport/contracts/index.ts';
import { fitJson, SHELL_MAX_STDOUT_BYTES, shellReply } from '../shell/shell-output.ts';
import { fitSnapshot } from '../shell/shell-snapshot.ts';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) + 1;
const element = (clickId: number, y: number): DomIndexElement => ({
  clickId,
  tag: 'a',
  text: `Link number ${clickId} `.padEnd(150, 'x'),
  href: `https://example.test/${clickId}`,
  bbox: { x: 10, y, w: 100, h: 20 },
});

const fit = suite('fitSnapshot / fitJson');

fit('a snapshot that fits is left whole, with no truncated note', () => {
  const { data } = fitSnapshot(
    { url: 'https://a.test/', title: 'A', elements: [element(1, 10)], text: 'hello' },
    SHELL_MAX_STDOUT_BYTES,
    8000,
  );
  assert.equal(Object.keys(data).sort(), ['refs', 'snapshot', 'text', 'title', 'url']);
});

fit('too many elements: those in view are kept first, the text stays whole, and the note counts them', () => {
  // 300 elements below the fold first in document order, then 50 in view.
  const elements = [
    ...Array.from({ length: 300 }, (_, i) => element(i + 1, 2000 + i * 30)),
    ...Array.from({ length: 50 }, (_, i) => element(400 + i, 10 + i * 15)),
  ];
  const text = 'page text '.repeat(800);
  const { data, table } = fitSnapshot({ url: 'https://a.test/', elements, text }, SHELL_MAX_STDOUT_BYTES, 8000);
  assert.ok(bytes(data) <= SHELL_MAX_STDOUT_BYTES, `${bytes(data)} bytes`);
  assert.is(data.text, text, 'the page text is kept over elements');
  const refs = Object.keys(data.refs as object);
  for (let i = 0; i < 50; i++) assert.ok(refs.includes(`e${400 + i}`), `in-view element e${400 + i} kept`);
  const note = (data.truncated as any).elements;
  assert.equal([note.total, note.shown], [350, refs.length]);
  assert.ok(refs.length < 300);
  assert.is(table.refs.size, 350, 'every indexed element still resolves as a ref');
});

fit('text longer than the read limit is cut there and the note says so', () => {
  const { data } = fitSnapshot(
    { url: 'https://a.test/', elements: [], text: 'y'.repeat(20_000) },
    SHELL_MAX_STDOUT_BYTES,
    8000,
  );
  assert.is((data.text as string).length, 8000);
  assert.equal((data.truncated as any).text, {
    shownChars: 8000,
    totalChars: 20_000,
    reason: 'at most 8000 characters of page text',
  });
});

fit('fitJson halves the largest parts until the reply fits, never cutting inside JSON', () => {
  const huge = {
    url: 'https://a.test/',
    items: Array.from({ length: 5000 }, (_, i) => ({ i, note: 'z'.repeat(40) })),
    blob: 'q'.repeat(200_000),
  };
  const fitted = fitJson(huge, SHELL_MAX_STDOUT_BYTES) as Record<string, any>;
  assert.ok(bytes(fitted) <= SHELL_MAX_STDOUT_BYTES);
  assert.is(fitted.url, 'https://a.test/');
  assert.ok(fitted.truncated.cut.includes('blob'));
  const reply = shellReply('s', 0, huge, '');
  assert.ok(Buffer.byteLength(reply.stdout) <= SHELL_MAX_STDOUT_BYTES);
  assert.ok(JSON.parse(reply.stdout).truncated, 'stdout parses as JSON');
});

fit.run();
