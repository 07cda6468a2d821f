// Task scope (issue 23): the sites the person named, widened to their registrable domain.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaskScope, siteFromInput, siteOf, sitesNamedIn } from '../task-scope.ts';

const test = suite('task scope');

test('a URL or a bare host in the request names its registrable domain (public suffixes respected)', () => {
  assert.equal(sitesNamedIn('open https://mail.example.co.uk/inbox and read the newest mail'), ['example.co.uk']);
  assert.equal(sitesNamedIn('on bank.example.com, transfer 25 EUR to Alice'), ['example.com']);
  assert.equal(sitesNamedIn('compare shop-a.de and www.shop-b.fr.'), ['shop-a.de', 'shop-b.fr']);
  assert.equal(sitesNamedIn('the app at localhost:4100 and http://127.0.0.1:9/x'), ['127.0.0.1:9', 'localhost:4100']);
});

test('words that only look like hosts are not sites (file names, e.g., emails)', () => {
  assert.equal(sitesNamedIn('summarise notes.txt, e.g. the intro'), []);
  assert.equal(sitesNamedIn('write to alice@example.org'), []);
});

test('links within the registrable domain stay in scope, other sites and schemes do not', () => {
  const scope = createTaskScope();
  assert.is(scope.noteRequest('check my inbox at https://mail.example.com'), true);
  assert.ok(scope.covers('https://login.example.com/sso?next=/inbox'));
  assert.ok(scope.covers('http://example.com/'));
  assert.not.ok(scope.covers('https://example.com.evil.net/'));
  assert.not.ok(scope.covers('https://evil.net/?to=example.com'));
  assert.not.ok(scope.covers('javascript:alert(1)'));
  assert.is(scope.noteRequest('again on mail.example.com'), false, 'no change, no event');
});

test('localhost and IP addresses are scoped by host and port', () => {
  const scope = createTaskScope();
  scope.noteRequest('open http://127.0.0.1:4100/');
  assert.ok(scope.covers('http://127.0.0.1:4100/a'));
  assert.not.ok(scope.covers('http://127.0.0.1:4200/'));
});

test('an empty scope covers nothing: a request that names no site asks before the first page', () => {
  assert.not.ok(createTaskScope().covers('https://example.com/'));
});

test('the person edits the list; an unreadable entry changes nothing; allow() adds one site', () => {
  const scope = createTaskScope();
  scope.noteRequest('https://a.example.com');
  assert.equal(scope.replace(['example.org', 'not a site!']).rejected, ['not a site!']);
  assert.equal(
    scope.sites.map((s) => s.site),
    ['example.com'],
  );
  assert.equal(scope.replace(['https://x.example.org/path', 'localhost:3001', 'example.com']).rejected, []);
  assert.equal(scope.sites, [
    { site: 'example.org', from: 'person' },
    { site: 'localhost:3001', from: 'person' },
    { site: 'example.com', from: 'request' },
  ]);
  scope.allow('https://help.example.net/');
  assert.ok(scope.covers('https://example.net/'));
});

test('siteOf and siteFromInput normalise', () => {
  assert.is(siteOf('https://A.B.Example.COM:8443/x'), 'example.com');
  assert.is(siteOf('ftp://example.com'), null);
  assert.is(siteFromInput('  www.example.com '), 'example.com');
  assert.is(siteFromInput('nonsense'), null);
});

test.run();
