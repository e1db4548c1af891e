import { releasePathOf, UNRESOLVED_REASONS, whyNotResolved, type ResolvedFrame } from '../../../../lambda/ingest/issues/resolved-frames';

const FRAME: ResolvedFrame = { fn: 'o', file: 'https://shop.example.com/assets/app.js?v=2#x', line: 2, column: 54 };

describe('a frame as source maps resolved it', () => {
  test("a build without debug ids is keyed by its script URL's path, as ~/…, without origin, query or fragment", () => {
    expect(releasePathOf(FRAME.file)).toBe('~/assets/app.js');
    expect(releasePathOf('https://shop.example.com')).toBe('~/');
    expect(releasePathOf('not a url')).toBeUndefined();
  });

  test('a resolved frame has no reason', () => {
    expect(whyNotResolved({ ...FRAME, original: { source: 'src/a.js', line: 1, column: 1 } }, {})).toBeUndefined();
  });

  test('every reason reads as a sentence, saying what to do where there is something to do', () => {
    for (const reason of UNRESOLVED_REASONS) expect(whyNotResolved({ ...FRAME, unresolved: reason }, { release: 'web@1' })).toMatch(/^[a-z].{20,}/);
    expect(whyNotResolved({ ...FRAME, unresolved: 'no-map', debugId: 'd-1' }, {})).toMatch(/no map uploaded for debug id d-1: upload the build's maps/);
    expect(whyNotResolved({ ...FRAME, unresolved: 'no-map' }, { release: 'web@1' })).toMatch(
      /release web@1 and path ~\/assets\/app\.js: .*upload with --release web@1/,
    );
    expect(whyNotResolved({ ...FRAME, unresolved: 'url-mismatch' }, { debugIds: { 'https://shop.example.com/other.js': 'd' } })).toMatch(
      /only for other scripts \(https:\/\/shop\.example\.com\/other\.js\)/,
    );
  });
});
