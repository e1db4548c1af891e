import { mapRefOf, refKey } from '../../../../lambda/ingest/sourcemaps/map-refs';

const APP = 'https://shop.example.com/assets/app.js';
const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';

describe('the map a frame asks for', () => {
  test("by the debug id the page registered for the script's URL", () => {
    expect(mapRefOf(APP, { debugIds: { [APP]: ID } })).toEqual({ ref: { kind: 'debugId', debugId: ID }, debugId: ID });
  });

  test('a cache-busting query or fragment does not lose the id', () => {
    expect(mapRefOf(`${APP}?v=2`, { debugIds: { [APP]: ID } })).toMatchObject({ debugId: ID });
    expect(mapRefOf(APP, { debugIds: { [`${APP}#x`]: ID } })).toMatchObject({ debugId: ID });
  });

  test("without an id, by the event's release and the URL's path", () => {
    expect(mapRefOf(APP, { release: 'web@2' })).toEqual({ ref: { kind: 'release', release: 'web@2', path: '~/assets/app.js' } });
  });

  test('with neither, why not: no debug id at all, or ids only for other scripts', () => {
    expect(mapRefOf(APP, {})).toEqual({ unresolved: 'no-debug-id' });
    expect(mapRefOf(APP, { debugIds: { 'https://shop.example.com/other.js': ID } })).toEqual({ unresolved: 'url-mismatch' });
  });

  test("a debug ids map's own keys (constructor, __proto__) are data, not the object's", () => {
    expect(mapRefOf('constructor', { debugIds: {} })).toEqual({ unresolved: 'no-debug-id' });
  });
});

test("one key per factory and ref: another factory's map is another entry", () => {
  const ref = { kind: 'debugId' as const, debugId: ID };
  expect(refKey('fac_a', ref)).not.toBe(refKey('fac_b', ref));
  expect(refKey('fac_a', { kind: 'release', release: 'r', path: '~/a' })).not.toBe(refKey('fac_a', { kind: 'release', release: 'r\n~/a', path: '' }));
});
