import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createManifest } from '../../../extension/manifest.ts';
import { DEFAULT_EXTENSION_ID, EXTENSION_PUBLIC_KEY, extensionOrigin } from '../extension-identity.ts';

const identity = suite('extension identity');

// Chrome's rule for unpacked extensions with a manifest key: SHA-256 of the DER public key,
// first 16 bytes, each hex digit 0-f written as a letter a-p.
const idFromKey = (base64: string) =>
  [...createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').slice(0, 32)]
    .map((digit) => String.fromCharCode(97 + parseInt(digit, 16)))
    .join('');

identity('the pinned id is the one Chrome derives from the manifest key', () => {
  assert.is(idFromKey(EXTENSION_PUBLIC_KEY), DEFAULT_EXTENSION_ID);
  assert.match(DEFAULT_EXTENSION_ID, /^[a-p]{32}$/);
});

identity('the built manifest carries the key', () => {
  assert.is(createManifest({ version: '1.0.0' }).key, EXTENSION_PUBLIC_KEY);
});

identity('extensionOrigin', () => {
  assert.is(extensionOrigin(DEFAULT_EXTENSION_ID), `chrome-extension://${DEFAULT_EXTENSION_ID}`);
});

identity.run();
