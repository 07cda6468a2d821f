// The extension's pinned identity. Chrome derives an unpacked extension's id from the `key` in its
// manifest (the first 128 bits of SHA-256 of the DER public key, written with the letters a-p), so
// every build of our extension has the same id and the server can allow exactly its
// `chrome-extension://<id>` Origin. Only the public key is here; no private key is kept anywhere
// (it would only be needed to pack a .crx, which we do not ship).
export const EXTENSION_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtTsJqXBohAF1NeBZDU3aMP8BBTS9/8Dhf3vH0ogcAzK1Y3x5F44qdUTsVs9XIFSWdV/kibw+5KaQjRToTH+FOfCDmrlf8X+p7licytmmP8V17NjcUZBl/b2411DDhfRsIH2i3pMp4vrBkdau5i0YdNAv4r4LoxtbEJ5RWfU6V9XtNRjC8VepoVRFEWmlgkhCIKMefr5GsuODnycO0LEW4YH6LhyYHx/bX8k35foaPHtYDr9OfhkTKAzYZmTa+lskda0lcRu43W6OExYi7JiBk5IbaTuy+wx9Tr5mZOEylT02X55KTg1Um8RfD/n+rMQNPTGBneFVAKSl3P5woqtHbwIDAQAB';

/** The id Chrome gives the extension built with EXTENSION_PUBLIC_KEY (checked by a test). */
export const DEFAULT_EXTENSION_ID = 'mhmomkalllegnbcebdnadjangmiaoicl';

export const extensionOrigin = (id: string): string => `chrome-extension://${id}`;
