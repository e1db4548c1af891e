import { estimateParsedBytes, parseStoredMap, PARSED_BYTES_PER_LINE, PARSED_BYTES_PER_MAPPING_BYTE } from '../../../../lambda/ingest/sourcemaps/parsed-map';
import { tinyBuild } from '../../../support/tiny-build';

const stored = (text: string) => ({ text, bytes: Buffer.byteLength(text) });

describe('a stored map read for resolving', () => {
  test('a version 3 map parses, with the heap it will hold estimated', () => {
    const parsed = parseStoredMap(stored(tinyBuild().map), 1e9);
    expect(parsed).toMatchObject({ ok: true, parsedBytes: expect.any(Number) });
  });

  test('an index map (sections) parses too', () => {
    const { map } = tinyBuild();
    const index = JSON.stringify({ version: 3, sections: [{ offset: { line: 0, column: 0 }, map: JSON.parse(map) }] });
    expect(parseStoredMap(stored(index), 1e9).ok).toBe(true);
  });

  test('what is not a usable map is broken, saying why', () => {
    expect(parseStoredMap(stored('{oops'), 1e9)).toEqual({ ok: false, problem: 'broken', detail: 'not JSON' });
    expect(parseStoredMap(stored('{"version":2}'), 1e9)).toEqual({ ok: false, problem: 'broken', detail: 'not a version 3 source map' });
    expect(parseStoredMap(stored('{"version":3,"sources":[]}'), 1e9)).toEqual({ ok: false, problem: 'broken', detail: 'no mappings' });
    expect(parseStoredMap(stored('{"version":3,"mappings":""}'), 1e9)).toEqual({ ok: false, problem: 'broken', detail: 'no sources' });
  });

  test('a map over the bound once parsed is refused before it is decoded', () => {
    expect(parseStoredMap(stored(tinyBuild().map), 10)).toMatchObject({ ok: false, problem: 'refused' });
  });

  test('the estimate grows with the mappings, each generated line, and the rest of the text', () => {
    expect(estimateParsedBytes('AAAA', 4)).toBe(4 * PARSED_BYTES_PER_MAPPING_BYTE);
    expect(estimateParsedBytes(';;;;', 4) - estimateParsedBytes('AAAA', 4)).toBe(4 * PARSED_BYTES_PER_LINE);
    expect(estimateParsedBytes('AAAA', 1004)).toBeGreaterThan(estimateParsedBytes('AAAA', 4));
  });
});
