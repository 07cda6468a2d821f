import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, renderMarkdown, safeHttpUrl } from '../src/text/markdown.ts';

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'strong',
  'em',
  'code',
  'pre',
  'a',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/** Every tag in `html` is whitelisted and carries only the attributes this renderer writes. */
function assertSafe(html: string, input: string) {
  const where = `for input ${JSON.stringify(input)}\n${html}`;
  for (const [, closing, name, attrs] of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>/g)) {
    assert.ok(ALLOWED_TAGS.has(name!), `tag <${name}> ${where}`);
    if (closing) {
      assert.is(attrs, '', where);
      continue;
    }
    const rest = attrs!
      .replace(/ href="https?:\/\/[^"<>\s]*"/, '')
      .replace(/ rel="noopener noreferrer"/, '')
      .replace(/ target="_blank"/, '')
      .replace(/ class="(ta-c|ta-r|language-[\w+#.&;-]+)"/, '')
      .replace(/ start="\d+"/, '');
    assert.is(rest, '', `unexpected attributes on <${name}> ${where}`);
    if (name === 'a') assert.match(attrs!, /rel="noopener noreferrer"/, where);
  }
  // Anything that looks like markup but is not one of ours must have been escaped.
  const stripped = html.replace(/<\/?([a-zA-Z0-9]+)([^>]*)>/g, '');
  assert.not.ok(/[<>]/.test(stripped), `stray angle bracket ${where}`);
  for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.match(href!, /^https?:\/\//, `href scheme ${where}`);
}

const safety = suite('markdown: no raw HTML, no javascript:');

const attacks = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click]( javascript:alert(1) )',
  '[click](data:text/html;base64,PHNjcmlwdD4=)',
  '[click](vbscript:msgbox)',
  '[x](http://a.test/"onmouseover="alert(1))',
  "[x](http://a.test/'onmouseover='alert(1))",
  '[x](https://ok.test) <iframe src=//evil>',
  '`<b>code</b>`',
  '```html\n<script>alert(1)</script>\n```',
  '```"><script>x</script>\ncode\n```',
  '| <b>h</b> | x |\n|---|---|\n| <script> | [a](javascript:b) |',
  '- <img src=x>\n- [a](http://ok.test/?q=<script>)',
  '**<script>**',
  '&lt;script&gt;',
  'http://evil.test/<script>alert(1)</script>',
  '<style>*{display:none}</style>',
  '\u0000<script>\u0000',
  '\u00000\u0000 [a](https://x.test)',
  '<svg/onload=alert(1)>',
  '<!-- comment --><p onclick=x>',
];

safety('known attack strings come out escaped or as text', () => {
  for (const input of attacks) assertSafe(renderMarkdown(input), input);
  assert.is(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  assert.is(renderMarkdown('[click](javascript:alert(1))'), '<p>[click](javascript:alert(1))</p>');
  assert.not.match(renderMarkdown('[x](http://a.test/"onmouseover="alert(1))'), /" onmouseover/);
});

safety('random input built from dangerous pieces never yields foreign markup', () => {
  const pieces = [
    '<',
    '>',
    '"',
    "'",
    '&',
    '`',
    '```',
    '*',
    '**',
    '_',
    '[',
    ']',
    '(',
    ')',
    '|',
    '-',
    '\n',
    ' ',
    'javascript:',
    'http://x.test/',
    'https://',
    'script',
    'img',
    'onerror=',
    '=',
    '#',
    '1.',
    '\u0000',
    '0',
    ':',
    '/',
  ];
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 3000; n++) {
    const length = 1 + Math.floor(random() * 30);
    let input = '';
    for (let i = 0; i < length; i++) input += pieces[Math.floor(random() * pieces.length)];
    assertSafe(renderMarkdown(input), input);
  }
});

safety('only absolute http(s) URLs are links', () => {
  assert.is(safeHttpUrl('https://example.com/a b'), 'https://example.com/a%20b');
  assert.is(safeHttpUrl('javascript:alert(1)'), null);
  assert.is(safeHttpUrl('//example.com'), null);
  assert.is(safeHttpUrl('/relative'), null);
  assert.is(safeHttpUrl('http://'), null);
  assert.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

const syntax = suite('markdown: the whitelist renders');

syntax('paragraphs, line breaks, bold, italic, inline code', () => {
  assert.is(
    renderMarkdown('Hello **world** and *you*\nsecond line\n\nnew `a<b>`'),
    '<p>Hello <strong>world</strong> and <em>you</em><br>second line</p><p>new <code>a&lt;b&gt;</code></p>',
  );
  assert.is(renderMarkdown('snake_case_name stays, _this_ is em'), '<p>snake_case_name stays, <em>this</em> is em</p>');
});

syntax('links with rel=noopener, bare URLs, code inside a label', () => {
  assert.is(
    renderMarkdown('[the `docs`](https://example.com/docs) and https://example.org.'),
    '<p><a href="https://example.com/docs" rel="noopener noreferrer" target="_blank">the <code>docs</code></a> and <a href="https://example.org/" rel="noopener noreferrer" target="_blank">https://example.org</a>.</p>',
  );
});

syntax('fenced code, lists, tables, headings', () => {
  assert.is(
    renderMarkdown('```ts\nconst a = 1 < 2;\n```'),
    '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
  );
  assert.is(
    renderMarkdown('- a\n- b\n\n2. x\n3. y'),
    '<ul><li>a</li><li>b</li></ul><ol start="2"><li>x</li><li>y</li></ol>',
  );
  assert.is(
    renderMarkdown('| Name | Price |\n|:--|--:|\n| A | **3** |'),
    '<table><thead><tr><th>Name</th><th class="ta-r">Price</th></tr></thead><tbody><tr><td>A</td><td class="ta-r"><strong>3</strong></td></tr></tbody></table>',
  );
  assert.is(renderMarkdown('## Result'), '<p><strong>Result</strong></p>');
});

syntax('an unclosed fence while streaming renders as code so far', () => {
  assert.is(renderMarkdown('Look:\n```\nline 1\nline'), '<p>Look:</p><pre><code>line 1\nline</code></pre>');
});

safety.run();
syntax.run();
