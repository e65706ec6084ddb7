import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../http/canonical-json.js';
import { certificateBodyHash } from './certificate-upload-request.js';

describe('certificateBodyHash', () => {
  it('is the hash the route claimed keys with before the upload moved to a service (keys stay valid)', () => {
    const pfx = Buffer.from([0x30, 0x82, 0x01, 0x00, 0xff]);
    for (const password of ['', 'senha', 'pä"ss\\word']) {
      expect(certificateBodyHash(pfx, password)).toBe(sha256Hex(canonicalJson({ pfx: sha256Hex(pfx), password: sha256Hex(password) })));
    }
  });
});
