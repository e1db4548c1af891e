import { issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';
import { newDebugId, sha256Hex, smallMap, testMapStore, uploadOverHttp } from '../support/sourcemaps';
import { MAX_MAP_BYTES } from '../../lambda/ingest/sourcemaps/limits';

let api: LocalApi;
const store = testMapStore();

beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

async function tenant() {
  const factoryId = newFactoryId('maps');
  return { factoryId, key: (await issueKey(factoryId)).key };
}

test('a 20 MB map is uploaded through a presigned PUT and stored under its debug id, byte for byte', async () => {
  const { factoryId, key } = await tenant();
  const debugId = newDebugId();
  const text = smallMap({ debugId, padTo: 20 * 1000 * 1000 });
  const result = await uploadOverHttp(api.baseUrl, key, { kind: 'debugId', debugId }, text);
  expect([result.announced.status, result.put, result.completed?.status]).toEqual([201, 200, 201]);
  const stored = await store.get(factoryId, { kind: 'debugId', debugId });
  expect(stored?.bytes).toBe(Buffer.byteLength(text));
  expect(sha256Hex(stored?.text ?? '')).toBe(sha256Hex(text));
});

test('uploading the same map again is a no-op: the announcement answers "stored" and no URL', async () => {
  const { key } = await tenant();
  const debugId = newDebugId();
  const text = smallMap({ debugId });
  await uploadOverHttp(api.baseUrl, key, { kind: 'debugId', debugId }, text);
  const again = await uploadOverHttp(api.baseUrl, key, { kind: 'debugId', debugId }, text);
  expect(again.announced).toEqual({ status: 200, json: { status: 'stored', sha256: sha256Hex(text), bytes: Buffer.byteLength(text) } });
  expect(again.put).toBeUndefined();
});

test("a map whose debugId is another file's is refused with 422 saying so, and nothing is stored", async () => {
  const { factoryId, key } = await tenant();
  const debugId = newDebugId();
  const result = await uploadOverHttp(api.baseUrl, key, { kind: 'debugId', debugId }, smallMap({ debugId: newDebugId() }));
  expect(result.completed?.status).toBe(422);
  expect(result.completed?.json.error).toMatch(/debugId is .* not .*belongs to another file/);
  expect(await store.get(factoryId, { kind: 'debugId', debugId })).toBeUndefined();
});

test('a release map whose "file" names another file is refused with 422 naming both', async () => {
  const { factoryId, key } = await tenant();
  const ref = { kind: 'release' as const, release: '1.2.3', path: '~/assets/vendor.js' };
  const result = await uploadOverHttp(api.baseUrl, key, ref, smallMap({ file: 'app.js' }));
  expect(result.completed?.status).toBe(422);
  expect(result.completed?.json.error).toContain('belongs to "app.js"');
  expect(result.completed?.json.error).toContain('~/assets/vendor.js');
  expect(await store.get(factoryId, ref)).toBeUndefined();
});

test('a release map is stored by release and URL path, its path a key segment, never a file path', async () => {
  const { factoryId, key } = await tenant();
  const ref = { kind: 'release' as const, release: 'v1/../../x', path: '~/assets/../../app.js' };
  const result = await uploadOverHttp(api.baseUrl, key, ref, smallMap({ file: 'app.js' }));
  expect(result.completed?.status).toBe(201);
  expect((await store.get(factoryId, ref))?.text).toBe(smallMap({ file: 'app.js' }));
  expect(await store.get(factoryId, { ...ref, release: 'x' })).toBeUndefined();
});

test.each([
  ['malformed JSON', '{"version": 3, "mappings": ', /not JSON/],
  ['a version other than 3', JSON.stringify({ version: 2, sources: [], names: [], mappings: '' }), /"version" must be 3/],
  ['mappings with a character outside base64 VLQ', JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA;../etc' }), /not base64 VLQ/],
  ['mappings pointing at a source that is not there', JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AEAA' }), /points at source 2/],
  ['mappings with a number past 32 bits', JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: '4/////////B' }), /32 bits/],
  ['sources that are not names', JSON.stringify({ version: 3, sources: [{ path: '/etc/passwd' }], names: [], mappings: '' }), /"sources" must be a list/],
])('a hostile map (%s) is refused with 422 and why, and changes nothing', async (_, text, why) => {
  const { factoryId, key } = await tenant();
  const ref = { kind: 'release' as const, release: 'r1', path: '~/app.js' };
  const result = await uploadOverHttp(api.baseUrl, key, ref, text);
  expect(result.completed?.status).toBe(422);
  expect(result.completed?.json.error).toMatch(why);
  expect(await store.get(factoryId, ref)).toBeUndefined();
  // The refused bytes are gone too: completing again finds nothing.
  const again = await fetch(new URL(result.announced.json.complete, api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: JSON.stringify({ ref: { release: 'r1', path: '~/app.js' }, sha256: sha256Hex(text) }),
  });
  expect(again.status).toBe(404);
});

test('a map announced over the size limit is refused with 413 before any byte is sent', async () => {
  const { key } = await tenant();
  const response = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: JSON.stringify({ ref: { debugId: newDebugId() }, sha256: '0'.repeat(64), bytes: MAX_MAP_BYTES + 1 }),
  });
  expect(response.status).toBe(413);
  expect(((await response.json()) as { error: string }).error).toMatch(/over the limit/);
});

test('a map PUT far over the size limit after a small announcement is refused by the store (the URL is signed for the size announced), and nothing is stored', async () => {
  const { factoryId, key } = await tenant();
  const debugId = newDebugId();
  const big = Buffer.alloc(MAX_MAP_BYTES + 1024 * 1024, 0x20);
  const announced = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(big), bytes: 100 }),
  });
  const { upload, complete } = (await announced.json()) as { upload: { url: string }; complete: string };
  const put = await fetch(upload.url, { method: 'PUT', body: big });
  expect([put.status, await put.text()]).toEqual([403, expect.stringContaining('SignatureDoesNotMatch')]);
  const completed = await fetch(new URL(complete, api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(big) }),
  });
  expect(completed.status).toBe(404);
  expect(await store.get(factoryId, { kind: 'debugId', debugId })).toBeUndefined();
});

test("one factory's map never reads nor completes for another factory", async () => {
  const owner = await tenant();
  const other = await tenant();
  const debugId = newDebugId();
  const text = smallMap({ debugId });
  const mine = await uploadOverHttp(api.baseUrl, owner.key, { kind: 'debugId', debugId }, text);
  expect(mine.completed?.status).toBe(201);
  expect(await store.get(other.factoryId, { kind: 'debugId', debugId })).toBeUndefined();
  // The other factory's announcement of the same map is no "already stored": it has none.
  const theirs = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${other.key}` },
    body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) }),
  });
  expect(theirs.status).toBe(201);
  // Nor can it complete the owner's upload id: pending bytes live under the owner's prefix.
  const owners = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${owner.key}` },
    body: JSON.stringify({ ref: { debugId: newDebugId() }, sha256: sha256Hex(text), bytes: 10 }),
  });
  const { upload, complete } = (await owners.json()) as { upload: { url: string }; complete: string };
  await fetch(upload.url, { method: 'PUT', body: text });
  const stolen = await fetch(new URL(complete, api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${other.key}` },
    body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(text) }),
  });
  expect(stolen.status).toBe(404);
});

test('the source maps API refuses a request with an Origin header, sends no CORS header, and wants a secret key', async () => {
  const { key } = await tenant();
  const withOrigin = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Origin: 'https://evil.example' },
    body: '{}',
  });
  expect(withOrigin.status).toBe(403);
  expect([...withOrigin.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  const noKey = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), { method: 'POST', body: '{}' });
  expect(noKey.status).toBe(401);
});

describe('an upload URL stores exactly what it was issued for, once (issue 48)', () => {
  /** An announcement of `text` for `debugId`: the answer's upload target and completion path. */
  async function announce(key: string, debugId: string, text: string) {
    const answer = await fetch(new URL('/sourcemaps/v1/uploads', api.baseUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(text), bytes: Buffer.byteLength(text) }),
    });
    expect(answer.status).toBe(201);
    return (await answer.json()) as { upload: { url: string; headers: Record<string, string> }; complete: string };
  }
  const complete = (key: string, path: string, debugId: string, text: string) =>
    fetch(new URL(path, api.baseUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      body: JSON.stringify({ ref: { debugId }, sha256: sha256Hex(text) }),
    });

  test('a used URL, replayed and completed for another debug id of the same factory, stores nothing under that id', async () => {
    const { factoryId, key } = await tenant();
    const [first, second] = [newDebugId(), newDebugId()];
    const text = smallMap({ debugId: first });
    const target = await announce(key, first, text);
    expect((await fetch(target.upload.url, { method: 'PUT', headers: target.upload.headers, body: text })).status).toBe(200);
    expect((await complete(key, target.complete, first, text)).status).toBe(201);
    // The same URL again: the bytes land in pending/ once more, but the upload was completed: nothing completes it for another id.
    expect((await fetch(target.upload.url, { method: 'PUT', headers: target.upload.headers, body: text })).status).toBe(200);
    const replay = await complete(key, target.complete, second, text);
    expect(replay.status).toBe(404);
    expect(await store.get(factoryId, { kind: 'debugId', debugId: second })).toBeUndefined();
  });

  test('a completion naming another debug id than the one announced is refused, and the upload is gone', async () => {
    const { factoryId, key } = await tenant();
    const [announced, other] = [newDebugId(), newDebugId()];
    const text = smallMap({ debugId: other });
    const target = await announce(key, announced, text);
    expect((await fetch(target.upload.url, { method: 'PUT', headers: target.upload.headers, body: text })).status).toBe(200);
    const wrong = await complete(key, target.complete, other, text);
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { error: string }).error).toMatch(new RegExp(`requested for debug id ${announced}`));
    expect(await store.get(factoryId, { kind: 'debugId', debugId: other })).toBeUndefined();
    expect((await complete(key, target.complete, announced, text)).status).toBe(404);
  });

  test('the embedded store checks as S3 does: other bytes of the same size, an edited URL, an expired one', async () => {
    const { key } = await tenant();
    const debugId = newDebugId();
    const text = smallMap({ debugId });
    const target = await announce(key, debugId, text);
    const otherBytes = await fetch(target.upload.url, { method: 'PUT', headers: target.upload.headers, body: text.replace(/"/, "'") });
    expect([otherBytes.status, await otherBytes.text()]).toEqual([400, expect.stringContaining('BadDigest')]);
    const edited = await fetch(target.upload.url.replace(/pending\/[^/]+\//, 'pending/fac_someone_else/'), {
      method: 'PUT',
      headers: target.upload.headers,
      body: text,
    });
    expect([edited.status, await edited.text()]).toEqual([403, expect.stringContaining('SignatureDoesNotMatch')]);
    // Signed an hour ago for 15 minutes: expired, whatever else holds.
    const url = new URL(target.upload.url);
    const signedAt = new Date(Date.now() - 3_600_000)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    url.searchParams.set('X-Amz-Date', signedAt);
    const expired = await fetch(url, { method: 'PUT', headers: target.upload.headers, body: text });
    expect([expired.status, await expired.text()]).toEqual([403, expect.stringContaining('Request has expired')]);
  });
});
