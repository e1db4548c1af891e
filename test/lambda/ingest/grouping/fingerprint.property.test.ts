import fc from 'fast-check';
import { groupEvent, IN_APP_FRAMES } from '../../../../lambda/ingest/grouping/fingerprint';
import { normalizeMessage } from '../../../../lambda/ingest/grouping/normalize-message';

/**
 * The grouping rule (property): what a redeploy or a new visitor changes in
 * an error never splits its issue; what tells two bugs apart always does.
 */
const identifier = fc.stringMatching(/^[a-z][a-zA-Z]{2,11}$/);
const dir = fc.stringMatching(/^[a-z]{1,8}$/);
/** A cache-busting hash as bundlers write it: 6-10 hex digits (with a digit), any case. */
const hash = fc.stringMatching(/^[0-9a-f]{5,9}$/).map((h) => `${h}7`);
const host = fc.constantFrom('https://shop.example.com', 'https://cdn.example.net', 'http://localhost:5173');
const separator = fc.constantFrom('.', '-');
const position = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 1, max: 9999 }));
const query = fc.constantFrom('', '?v=3', '?v=1764000000#x', '?cb=abc');

/** One frame: a function in a script of some directory and name. */
const frame = fc.record({ fn: identifier, dir, script: identifier });
type Frame = { fn: string; dir: string; script: string };

/** The frames as one deploy of the site writes them, in Chromium's or in Firefox/Safari's format. */
function stackText(
  frames: Frame[],
  deploy: { host: string; hash: string; sep: string; query: string; positions: [number, number][]; format: 'v8' | 'gecko' },
): string {
  return frames
    .map((f, i) => {
      const [line, column] = deploy.positions[i % deploy.positions.length] as [number, number];
      const url = `${deploy.host}/${f.dir}/${f.script}${deploy.sep}${deploy.hash}.js${deploy.query}:${line}:${column}`;
      return deploy.format === 'v8' ? `    at ${f.fn} (${url})` : `${f.fn}@${url}`;
    })
    .join('\n');
}
const deploy = fc.record({
  host,
  hash: hash.map((h) => h),
  sep: separator,
  query,
  positions: fc.array(position, { minLength: 1, maxLength: 5 }),
  format: fc.constantFrom<'v8' | 'gecko'>('v8', 'gecko'),
});
const error = (stack: string, value = 'x is undefined') => ({ exception: { type: 'TypeError', value, stack } });

describe('the fingerprint (property)', () => {
  test('the same frames from any two deploys (hashes, hosts, query strings, lines, browser format) give the same fingerprint', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 8 }), deploy, deploy, fc.string(), (frames, one, two, value) => {
        expect(groupEvent(error(stackText(frames, one), value))).toMatchObject({
          fingerprint: (groupEvent(error(stackText(frames, two))) as { fingerprint: string[] }).fingerprint,
        });
      }),
    );
  });

  test('a different function name in one of the top frames gives a different fingerprint', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 8 }), fc.nat(), identifier, deploy, (frames, at, other, d) => {
        const index = at % Math.min(frames.length, IN_APP_FRAMES);
        fc.pre(other !== frames[index]?.fn);
        const changed = frames.map((f, i) => (i === index ? { ...f, fn: other } : f));
        expect(groupEvent(error(stackText(changed, d)))).not.toEqual(groupEvent(error(stackText(frames, d))));
      }),
    );
  });

  test('a different script in one of the top frames gives a different fingerprint', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 5 }), fc.nat(), identifier, deploy, (frames, at, other, d) => {
        const index = at % frames.length;
        fc.pre(other !== frames[index]?.script);
        const changed = frames.map((f, i) => (i === index ? { ...f, script: other } : f));
        expect(groupEvent(error(stackText(changed, d)))).not.toEqual(groupEvent(error(stackText(frames, d))));
      }),
    );
  });

  test('frames below the top ones never change the fingerprint', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: IN_APP_FRAMES, maxLength: IN_APP_FRAMES }), fc.array(frame, { maxLength: 4 }), deploy, (top, below, d) => {
        expect(groupEvent(error(stackText([...top, ...below], d)))).toEqual(groupEvent(error(stackText(top, d))));
      }),
    );
  });

  test('messages that differ only in numbers, UUIDs, hex ids, quoted values and URLs normalize alike', () => {
    /** Two values of one kind: what two occurrences of the same error put in its message. */
    const twoOf = <T extends string>(value: fc.Arbitrary<T>) => fc.tuple(value, value);
    const pair = fc.oneof(
      twoOf(fc.integer().map(String)),
      twoOf(fc.uuid()),
      twoOf(fc.stringMatching(/^[0-9a-f]{7}[0-9]$/).map((h) => `0x${h}`)),
      twoOf(
        fc
          .string({ maxLength: 10 })
          .filter((s) => !/['\n\\]/.test(s))
          .map((s) => `'${s}'`),
      ),
      // A quote or a parenthesis ends a URL in a message ("failed to load 'https://…'"): URLs holding one are left out.
      twoOf(fc.webUrl({ withQueryParameters: true }).filter((url) => !/['()]/.test(url))),
    );
    fc.assert(
      fc.property(fc.constantFrom('Order', 'Cart', 'User'), pair, (word, [a, b]) => {
        expect(normalizeMessage(`${word} ${a} failed`)).toBe(normalizeMessage(`${word} ${b} failed`));
      }),
    );
  });

  test('a fingerprint the event sends always wins, whatever its stack', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 10 }),
        fc.array(frame, { maxLength: 5 }),
        deploy,
        (parts, frames, d) => {
          expect(groupEvent({ ...error(stackText(frames, d)), fingerprint: parts })).toMatchObject({ grouped: true, fingerprint: ['custom', ...parts] });
        },
      ),
    );
  });
});
