import { createHash } from 'node:crypto';
import { sha256Hex } from '../../../lambda/kernel/hash';

// Stored items are keyed by these hashes (keys, contact ids): the values are pinned, as a change would orphan data.
describe('sha256Hex', () => {
  test('is the standard SHA-256 of the UTF-8 text, in lowercase hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('dfsk_é')).toBe('ad1b37c3815f74fb4c6a0b95b848b2974a1be0b59b896e4af16b23f0facabc07');
  });

  test('agrees with createHash on text of any script', () => {
    for (const text of ['', 'σοφία@münchen.de', '😀'.repeat(100)]) expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});
