import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decodeBody } from '../../../../lambda/ingest/sentry/body-decoding';

test('a body decoded past its limit is refused as too large, having inflated no more than the limit', () => {
  expect(() => decodeBody(gzipSync(Buffer.alloc(2_000_000)), 'gzip', 1_000_000)).toThrow(expect.objectContaining({ refusal: 'too-large' }));
  expect(decodeBody(gzipSync('ok'), 'gzip', 10).toString()).toBe('ok');
});

test('gzip, deflate (wrapped or raw) and br are read; identity and no encoding leave the body as it is', () => {
  for (const [bytes, encoding] of [
    [gzipSync('ok'), 'gzip'],
    [deflateSync('ok'), 'deflate'],
    [deflateRawSync('ok'), 'deflate'],
    [brotliCompressSync('ok'), 'br'],
    [Buffer.from('ok'), 'identity'],
    [Buffer.from('ok'), undefined],
  ] as const)
    expect(decodeBody(bytes, encoding, 100).toString()).toBe('ok');
});

test('encodings applied in turn are undone in reverse order', () => {
  expect(decodeBody(brotliCompressSync(gzipSync('ok')), 'gzip, br', 100).toString()).toBe('ok');
});

test('an encoding it does not take is refused, saying which it takes', () => {
  expect(() => decodeBody(Buffer.from('x'), 'compress', 100)).toThrow(
    expect.objectContaining({ refusal: 'encoding', message: expect.stringMatching(/"compress" is not accepted: send the body as is, or gzip, deflate or br/) }),
  );
});
