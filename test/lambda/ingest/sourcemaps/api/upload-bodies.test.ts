import { completeBody, uploadRequestBody } from '../../../../../lambda/ingest/sourcemaps/api/upload-bodies';
import { errorMessage, proxyEvent, thrown } from '../../../../support/events';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const SHA = 'a'.repeat(64);
const read = (reader: typeof uploadRequestBody | typeof completeBody, body: unknown) =>
  reader.read(
    proxyEvent({ httpMethod: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );

describe("the upload API's bodies", () => {
  test('an announcement: the ref, the sha256 and the size', () => {
    expect(read(uploadRequestBody, { ref: { debugId: ID }, sha256: SHA, bytes: 10 })).toEqual({
      ref: { kind: 'debugId', debugId: ID },
      sha256: SHA,
      bytes: 10,
    });
    expect(read(completeBody, { ref: { debugId: ID }, sha256: SHA })).toEqual({ ref: { kind: 'debugId', debugId: ID }, sha256: SHA });
  });

  test('each wrong field is a 422 in words', () => {
    const refusal = (body: unknown) => {
      const error = thrown(() => read(uploadRequestBody, body)) as { statusCode: number };
      return [error.statusCode, errorMessage(error)];
    };
    expect(refusal([1])).toEqual([422, expect.stringMatching(/^The body must be a JSON object, like/)]);
    expect(refusal({ ref: { debugId: 'x' }, sha256: SHA, bytes: 1 })).toEqual([422, expect.stringMatching(/^ref\.debugId/)]);
    expect(refusal({ ref: { debugId: ID }, sha256: 'ABC', bytes: 1 })).toEqual([422, "sha256 must be the map's sha256 as 64 lowercase hex digits."]);
    expect(refusal({ ref: { debugId: ID }, sha256: SHA, bytes: 0 })).toEqual([422, "bytes must be the map's size in bytes, a positive integer."]);
  });

  test('a body that is not JSON is a 400', () => {
    expect((thrown(() => read(uploadRequestBody, '{oops')) as { statusCode: number }).statusCode).toBe(400);
  });
});
