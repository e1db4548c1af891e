import { createHash } from 'node:crypto';
import { MAX_MAP_BYTES } from '../../../../../lambda/ingest/sourcemaps/limits';
import { completeUpload, requestUpload } from '../../../../../lambda/ingest/sourcemaps/upload/upload-map';
import { MemoryMapUploads } from '../../../../support/map-uploads';
import { tinyBuild } from '../../../../support/tiny-build';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const REF = { kind: 'debugId' as const, debugId: ID };
const MAP = JSON.stringify({ ...JSON.parse(tinyBuild().map), debugId: ID });
const SHA = createHash('sha256').update(MAP).digest('hex');
const NOW = Date.parse('2026-11-21T09:00:00Z');

describe('an upload announced', () => {
  test('a map not stored yet gets a place to PUT its bytes', async () => {
    const answer = await requestUpload(new MemoryMapUploads(), 'fac_a', { ref: REF, sha256: SHA, bytes: MAP.length }, () => 'u1', NOW);
    expect(answer).toEqual({ outcome: 'upload', uploadId: 'u1', target: expect.objectContaining({ method: 'PUT' }) });
  });

  test('the same bytes stored recently need no upload; stored long ago (near their expiry) are stored again', async () => {
    const uploads = new MemoryMapUploads();
    await uploads.store('fac_a', REF, new TextEncoder().encode(MAP), { sha256: SHA, bytes: MAP.length, storedAtMs: NOW - 86_400_000 });
    expect((await requestUpload(uploads, 'fac_a', { ref: REF, sha256: SHA, bytes: MAP.length }, () => 'u1', NOW)).outcome).toBe('stored');
    await uploads.store('fac_a', REF, new TextEncoder().encode(MAP), { sha256: SHA, bytes: MAP.length, storedAtMs: NOW - 301 * 86_400_000 });
    expect((await requestUpload(uploads, 'fac_a', { ref: REF, sha256: SHA, bytes: MAP.length }, () => 'u1', NOW)).outcome).toBe('upload');
  });

  test('a map over the limit is refused before anything is sent', async () => {
    expect(await requestUpload(new MemoryMapUploads(), 'fac_a', { ref: REF, sha256: SHA, bytes: MAX_MAP_BYTES + 1 }, () => 'u1', NOW)).toMatchObject({
      outcome: 'too-large',
    });
  });
});

describe('an upload completed', () => {
  test('the bytes PUT, checked against the sha256 announced and as a map, are stored and the pending upload discarded', async () => {
    const uploads = new MemoryMapUploads();
    uploads.put('fac_a', 'u1', MAP);
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toEqual({
      outcome: 'stored',
      info: { sha256: SHA, bytes: MAP.length },
      already: false,
    });
    expect(await uploads.stored('fac_a', REF)).toEqual({ sha256: SHA, bytes: MAP.length });
    expect(uploads.pending.size).toBe(0);
  });

  test('completed twice: the second finds the map stored', async () => {
    const uploads = new MemoryMapUploads();
    uploads.put('fac_a', 'u1', MAP);
    await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA });
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({ outcome: 'stored', already: true });
  });

  test('bytes other than announced, or not a map of that file, are refused and discarded: nothing stored', async () => {
    const uploads = new MemoryMapUploads();
    uploads.put('fac_a', 'u1', `${MAP} `);
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/not the .* announced/),
    });
    const other = '{"version":3,"sources":[],"mappings":""}';
    uploads.put('fac_a', 'u2', other);
    expect(await completeUpload(uploads, 'fac_a', 'u2', { ref: REF, sha256: createHash('sha256').update(other).digest('hex') })).toMatchObject({
      outcome: 'refused',
    });
    expect([uploads.pending.size, uploads.maps.size]).toEqual([0, 0]);
  });

  test('nothing PUT: missing, saying to PUT first', async () => {
    expect(await completeUpload(new MemoryMapUploads(), 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({
      outcome: 'missing',
      reason: expect.stringMatching(/PUT the map to the URL first/),
    });
  });
});
