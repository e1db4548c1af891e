import { baseName, checkMap, checkMappings } from '../../../../../lambda/ingest/sourcemaps/upload/check-map';
import { tinyBuild } from '../../../../support/tiny-build';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';
const withId = (text: string, id = ID) => JSON.stringify({ ...JSON.parse(text), debugId: id });
const BY_ID = { kind: 'debugId' as const, debugId: ID };

describe('a map checked before it is stored', () => {
  test("a bundler's map with the debug id asked for is accepted; by release, one whose file is the path's", () => {
    const { map } = tinyBuild();
    expect(checkMap(withId(map), BY_ID)).toBeUndefined();
    expect(checkMap(JSON.stringify({ ...JSON.parse(map), file: 'app.js' }), { kind: 'release', release: 'r', path: '~/assets/app.js' })).toBeUndefined();
  });

  test("another file's map is refused, saying whose it is", () => {
    const { map } = tinyBuild();
    expect(checkMap(map, BY_ID)).toMatch(/carries no debugId/);
    expect(checkMap(withId(map, '00000000-0000-4000-8000-000000000000'), BY_ID)).toMatch(/belongs to another file/);
    expect(checkMap(JSON.stringify({ ...JSON.parse(map), file: 'vendor.js' }), { kind: 'release', release: 'r', path: '~/app.js' })).toMatch(
      /belongs to "vendor\.js"/,
    );
  });

  test('what is not a version 3 map of one file is refused, saying why', () => {
    expect(checkMap('{oops', BY_ID)).toMatch(/^the file is not JSON/);
    expect(checkMap('[1]', BY_ID)).toBe('the file is JSON but not a source map object');
    expect(checkMap('{"sections":[]}', BY_ID)).toMatch(/index maps/);
    expect(checkMap('{"version":2}', BY_ID)).toBe('"version" must be 3 (it is 2)');
    expect(checkMap('{"version":3,"sources":[1]}', BY_ID)).toBe('"sources" must be a list of names (strings)');
    expect(checkMap('{"version":3,"sources":[],"mappings":5}', BY_ID)).toBe('"mappings" must be a string');
  });
});

describe("a map's mappings, checked in one pass", () => {
  test('valid VLQ within its sources and names passes', () => {
    expect(checkMappings('AAAA,SAASA;;AACA', 1, 1)).toBeUndefined();
  });

  test('a segment of the wrong length, a source or name not listed, or a character that is not VLQ is refused, naming the line', () => {
    expect(checkMappings('AA', 1, 0)).toBe('mappings: line 1 has a segment of 2 fields (1, 4 or 5 expected)');
    expect(checkMappings('ACAA', 1, 0)).toBe('mappings: line 1 points at source 1, but "sources" has 1');
    expect(checkMappings(';AAAAC', 1, 0)).toBe('mappings: line 2 points at name 1, but "names" has 0');
    expect(checkMappings('AA!A', 1, 0)).toBe('mappings: character 2 ("!") is not base64 VLQ');
    expect(checkMappings('AAAAg', 1, 1)).toBe('mappings: it ends inside a number');
  });

  test('a number too big for 32 bits is refused, in time linear in the text', () => {
    expect(checkMappings('gggggggggA', 1, 0)).toMatch(/does not fit in 32 bits/);
    const started = process.cpuUsage();
    expect(checkMappings('AAAA,'.repeat(200_000), 1, 0)).toBeUndefined();
    expect(process.cpuUsage(started).user).toBeLessThan(2_000_000);
  });
});

test("a path's last segment, without query or fragment", () => {
  expect(baseName('~/assets/app.js?v=1#x')).toBe('app.js');
  expect(baseName('app.js')).toBe('app.js');
});
