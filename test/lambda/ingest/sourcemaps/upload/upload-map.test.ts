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
const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');
/** Uploads where `u1` was announced for MAP under REF. */
async function announcedMap(): Promise<MemoryMapUploads> {
  const uploads = new MemoryMapUploads();
  await uploads.announce('fac_a', 'u1', { ref: REF, sha256: SHA, bytes: MAP.length });
  return uploads;
}

describe('an upload announced', () => {
  test('a map not stored yet gets a place to PUT its bytes, and what it was announced for is recorded', async () => {
    const uploads = new MemoryMapUploads();
    const answer = await requestUpload(uploads, 'fac_a', { ref: REF, sha256: SHA, bytes: MAP.length }, () => 'u1', NOW);
    expect(answer).toEqual({ outcome: 'upload', uploadId: 'u1', target: expect.objectContaining({ method: 'PUT' }) });
    expect(await uploads.announcement('fac_a', 'u1')).toEqual({ ref: REF, sha256: SHA, bytes: MAP.length });
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
    const uploads = await announcedMap();
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
    const uploads = await announcedMap();
    uploads.put('fac_a', 'u1', MAP);
    await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA });
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({ outcome: 'stored', already: true });
  });

  test('bytes other than announced, or not a map of that file, are refused and discarded: nothing stored', async () => {
    const uploads = await announcedMap();
    uploads.put('fac_a', 'u1', `${MAP} `);
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/not the .* announced/),
    });
    const other = '{"version":3,"sources":[],"mappings":""}';
    await uploads.announce('fac_a', 'u2', { ref: REF, sha256: sha256Of(other), bytes: other.length });
    uploads.put('fac_a', 'u2', other);
    expect(await completeUpload(uploads, 'fac_a', 'u2', { ref: REF, sha256: sha256Of(other) })).toMatchObject({
      outcome: 'refused',
    });
    expect([uploads.pending.size, uploads.announced.size, uploads.maps.size]).toEqual([0, 0, 0]);
  });

  test('completed for another ref than announced: refused, nothing stored, and the upload cannot be completed again', async () => {
    const uploads = await announcedMap();
    uploads.put('fac_a', 'u1', MAP);
    const other = { kind: 'debugId' as const, debugId: '0a11fdbb-678d-44ec-a3b6-b8f35ffebdb2' };
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: other, sha256: SHA })).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/was requested for debug id 3d11fdbb/),
    });
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({ outcome: 'missing' });
    expect(uploads.maps.size).toBe(0);
  });

  test('a sha256 other than announced at completion is refused before the bytes are read', async () => {
    const uploads = await announcedMap();
    uploads.put('fac_a', 'u1', MAP);
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: 'b'.repeat(64) })).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/was requested for sha256 /),
    });
  });

  test('announced but nothing PUT: missing, saying to PUT first', async () => {
    expect(await completeUpload(await announcedMap(), 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({
      outcome: 'missing',
      reason: expect.stringMatching(/PUT the map to the URL first/),
    });
  });

  test('never announced: missing, even with bytes in the pending place', async () => {
    const uploads = new MemoryMapUploads();
    uploads.put('fac_a', 'u1', MAP);
    expect(await completeUpload(uploads, 'fac_a', 'u1', { ref: REF, sha256: SHA })).toMatchObject({
      outcome: 'missing',
      reason: expect.stringMatching(/no upload u1 is waiting/),
    });
  });
});
