import { StorageUnavailableError } from '../../lambda/kernel/errors';
import { mapReaderFromEnv, S3MapReader } from '../../lambda/infrastructure/store/source-maps/s3-map-reader';
import { newFactoryId } from '../support/local-api';
import { newDebugId, sha256Hex, smallMap, testMapStore } from '../support/sourcemaps';
import type { MapRef } from '../../lambda/ingest/sourcemaps/ports';

// The resolvers' reader (the ingest function, the control room) signs its own GETs: held here to the embedded store
// the upload side writes to, through the same environment npm start and the functions read.
const store = testMapStore();
const reader = mapReaderFromEnv()!;

async function stored(factoryId: string, ref: MapRef, text: string): Promise<void> {
  const body = Buffer.from(text);
  await store.store(factoryId, ref, body, { sha256: sha256Hex(body), bytes: body.byteLength });
}

test('a map stored under a debug id reads back byte for byte through the signed GET', async () => {
  const factoryId = newFactoryId('reader');
  const ref = { kind: 'debugId' as const, debugId: newDebugId() };
  await stored(factoryId, ref, smallMap({ debugId: ref.debugId }));
  expect(await reader.get(factoryId, ref)).toEqual({ text: smallMap({ debugId: ref.debugId }), bytes: Buffer.byteLength(smallMap({ debugId: ref.debugId })) });
});

test('a release map whose release and path hold slashes, dots and spaces reads back under its own key', async () => {
  const factoryId = newFactoryId('reader');
  const ref = { kind: 'release' as const, release: 'v1/../2 beta+1', path: '~/assets/../app é.js' };
  await stored(factoryId, ref, smallMap({ file: 'app é.js' }));
  expect((await reader.get(factoryId, ref))?.text).toBe(smallMap({ file: 'app é.js' }));
});

test("a map never stored, or another factory's, reads as none", async () => {
  const factoryId = newFactoryId('reader');
  const ref = { kind: 'debugId' as const, debugId: newDebugId() };
  await stored(factoryId, ref, smallMap({ debugId: ref.debugId }));
  expect(await reader.get(newFactoryId('reader'), ref)).toBeUndefined();
  expect(await reader.get(factoryId, { kind: 'debugId', debugId: newDebugId() })).toBeUndefined();
});

test('a store that does not answer is StorageUnavailableError, not "no map"', async () => {
  const closed = new S3MapReader({ bucket: 'contacts-source-maps', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
  await expect(closed.get(newFactoryId('reader'), { kind: 'debugId', debugId: newDebugId() })).rejects.toBeInstanceOf(StorageUnavailableError);
});

test('no SOURCE_MAPS_BUCKET, no reader: frames are grouped as sent', () => {
  expect(mapReaderFromEnv({})).toBeUndefined();
});
