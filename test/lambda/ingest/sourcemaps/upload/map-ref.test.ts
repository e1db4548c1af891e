import { readMapRef } from '../../../../../lambda/ingest/sourcemaps/upload/map-ref';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';

describe("a map's ref, as an uploader sends it", () => {
  test('by debug id, or by release and path', () => {
    expect(readMapRef({ debugId: ID })).toEqual({ kind: 'debugId', debugId: ID });
    expect(readMapRef({ release: 'web@2', path: '~/assets/app.js' })).toEqual({ kind: 'release', release: 'web@2', path: '~/assets/app.js' });
  });

  test('refused in words an uploader can act on', () => {
    expect(readMapRef('x')).toEqual({ error: expect.stringMatching(/^ref must be an object/) });
    expect(readMapRef({ debugId: ID, release: 'r' })).toEqual({ error: 'ref names a debugId or a release and path, not both' });
    expect(readMapRef({ debugId: ID.toUpperCase() })).toEqual({ error: 'ref.debugId must be a lowercase UUID with dashes, as inject writes it' });
    expect(readMapRef({ release: '', path: '~/a.js' })).toEqual({ error: expect.stringMatching(/^ref\.release must be a non-empty string/) });
    expect(readMapRef({ release: 'r\u0000', path: '~/a.js' })).toEqual({ error: expect.stringMatching(/^ref\.release/) });
    for (const path of ['/a.js', '~/a.js?v=1', `~/${'p'.repeat(400)}`])
      expect(readMapRef({ release: 'r', path })).toEqual({ error: expect.stringMatching(/^ref\.path must be/) });
  });
});
