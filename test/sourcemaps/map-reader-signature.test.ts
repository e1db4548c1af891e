import { StorageUnavailableError } from '../../lambda/kernel/errors';
import { S3MapReader } from '../../lambda/infrastructure/store/source-maps/s3-map-reader';
import type { MapRef } from '../../lambda/ingest/sourcemaps/ports';
import { newFactoryId } from '../support/local-api';
import { canonicalPath } from '../../local/harness/s3-verifying';
import { startSigV4CheckingProxy } from '../support/sigv4-checking-proxy';
import { newDebugId, sha256Hex, smallMap, testMapStore } from '../support/sourcemaps';

/**
 * The resolvers' reader signs its GETs itself (SigV4), and the embedded store checks no signature: here a proxy
 * in front of it checks each one as S3 does (test/support/sigv4-checking-proxy.ts), with the credentials a
 * Lambda function holds (a session token among them) and a region other than the default.
 */
const REGION = 'eu-west-1';
// s3rver knows one access key id and checks nothing else; the secret and the token are the proxy's to check.
const CREDENTIALS = {
  accessKeyId: 'S3RVER',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCWV1LXdlc3QtMSJHMEUCIQD+session/token+with/slashes==',
};

const store = testMapStore();
let proxy: Awaited<ReturnType<typeof startSigV4CheckingProxy>>;
const readerWith = (credentials: ConstructorParameters<typeof S3MapReader>[1]) =>
  new S3MapReader({ bucket: process.env.SOURCE_MAPS_BUCKET as string, endpoint: proxy.endpoint, region: REGION }, credentials);

beforeAll(async () => {
  // Its own check with these credentials, in front of the store itself (the run's S3_ENDPOINT checks the local ones).
  proxy = await startSigV4CheckingProxy({
    target: (process.env.S3_STORE_ENDPOINT ?? process.env.S3_ENDPOINT) as string,
    credentials: CREDENTIALS,
    region: REGION,
  });
});
afterAll(() => proxy?.close());

async function stored(factoryId: string, ref: MapRef, text: string): Promise<void> {
  const body = Buffer.from(text);
  await store.store(factoryId, ref, body, { sha256: sha256Hex(body), bytes: body.byteLength });
}

/** The reader's one GET for `action`, as the proxy checked it. */
async function checkedGet<T>(action: () => Promise<T>) {
  const before = proxy.checked.length;
  const result: { value?: T; error?: unknown } = await action().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  expect(proxy.checked.length).toBe(before + 1);
  return { ...result, checked: proxy.checked[before] };
}

test('the path is canonicalized as S3 does it: decoded, then every byte but the unreserved ones encoded once', () => {
  expect(canonicalPath("/b/maps/fac_x/release/v1%2F..%2F2%20beta%2B1/~%2Fa%20(1)*!'%C3%A9.js")).toBe(
    '/b/maps/fac_x/release/v1%2F..%2F2%20beta%2B1/~%2Fa%20%281%29%2A%21%27%C3%A9.js',
  );
});

test('a map read by debug id carries a signature S3 accepts, its session token signed with it', async () => {
  const factoryId = newFactoryId('sig');
  const ref = { kind: 'debugId' as const, debugId: newDebugId() };
  await stored(factoryId, ref, smallMap({ debugId: ref.debugId }));
  const { value, checked } = await checkedGet(() => readerWith(CREDENTIALS).get(factoryId, ref));
  expect(checked).toMatchObject({ method: 'GET', verdict: 'ok' });
  expect(checked?.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token']));
  expect(value?.text).toBe(smallMap({ debugId: ref.debugId }));
});

test("a release map whose key needs URI encoding (its release and path are already encoded into the key: %, spaces, parentheses, *, !, ', é) is signed as S3 reads the key", async () => {
  const factoryId = newFactoryId('sig');
  const ref = { kind: 'release' as const, release: "v1/../2 beta+1 (rc)*!'", path: '~/assets/../app é (1)*.js' };
  await stored(factoryId, ref, smallMap({ file: 'app é (1)*.js' }));
  const { value, checked } = await checkedGet(() => readerWith(CREDENTIALS).get(factoryId, ref));
  expect(checked?.verdict).toBe('ok');
  expect(checked?.path).toContain('%25');
  expect(value?.text).toBe(smallMap({ file: 'app é (1)*.js' }));
});

test('a map never stored: a signed GET S3 answers 404, read as no map', async () => {
  const { value, checked } = await checkedGet(() => readerWith(CREDENTIALS).get(newFactoryId('sig'), { kind: 'debugId', debugId: newDebugId() }));
  expect(checked?.verdict).toBe('ok');
  expect(value).toBeUndefined();
});

test.each([
  ['another secret', { ...CREDENTIALS, secretAccessKey: `${CREDENTIALS.secretAccessKey}x` }, 'SignatureDoesNotMatch'],
  ['no session token', { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: CREDENTIALS.secretAccessKey }, 'InvalidToken'],
])('the check refuses a reader signing with %s (403): the read fails as storage unavailable, never as "no map"', async (_, credentials, verdict) => {
  const factoryId = newFactoryId('sig');
  const ref = { kind: 'debugId' as const, debugId: newDebugId() };
  await stored(factoryId, ref, smallMap({ debugId: ref.debugId }));
  const { error, checked } = await checkedGet(() => readerWith(credentials).get(factoryId, ref));
  expect(checked?.verdict).toBe(verdict);
  expect(error).toBeInstanceOf(StorageUnavailableError);
});
