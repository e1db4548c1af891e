import { configure } from '../../browser-sdk/src/defaults';
import { describeError, describeMessage } from '../../browser-sdk/src/describe';
import { ALWAYS_IGNORED, isExtensionUrl, matches } from '../../browser-sdk/src/filters';
import { groupEvent } from '../../lambda/ingest/grouping/fingerprint';
import { EVENT_TEXT, INGEST_BODY_LIMIT_BYTES, MAX_EVENTS_PER_REQUEST } from '../../lambda/ingest/limits';

/**
 * The browser SDK restates rules of the ingest API so that it does not send
 * what the server would file away or cut (docs/browser-sdk.md#noise-control):
 * which text is a cross-origin "Script error.", which script URLs are a
 * browser extension's, how long each text field may be, and how much one
 * request may carry. The SDK is its own package and the ingest function must
 * not import it (test/repo/layout.test.ts), so this holds the two copies
 * equal, through each side's own functions.
 */

/** Texts a browser or a page may report for an error it hides, and near misses. */
const SCRIPT_ERROR_TEXTS = [
  'Script error.',
  'Script error',
  'script error.',
  'SCRIPT ERROR.',
  'Uncaught Script error.',
  'uncaught script error',
  '  Script error.  ',
  'Script error.\n',
  'TypeError: Script error. in my code',
  'Script errors',
  'Script error..',
  'Error: Script error.',
];

/** URL schemes of browser extensions' scripts, and schemes that only look like them. */
const SCHEMES = [
  'chrome-extension',
  'moz-extension',
  'safari-extension',
  'safari-web-extension',
  'ms-browser-extension',
  'edge-extension',
  'opera-extension',
  'extension',
  'chrome',
  'resource',
  'webkit-masked-url',
  'https',
  'http',
];

const serverFilters = (message: string) => groupEvent({ type: 'error', message }).grouped === false;

describe('the browser SDK and the ingest API share their rules', () => {
  test('a message the SDK drops as a cross-origin "Script error." is exactly one the server files away as one', () => {
    const verdicts = SCRIPT_ERROR_TEXTS.map((text) => ({ text, sdk: matches(text, ALWAYS_IGNORED), server: serverFilters(text) }));
    expect(verdicts.filter(({ sdk, server }) => sdk !== server)).toEqual([]);
    // Both do drop the plain one.
    expect(verdicts[0]).toEqual({ text: 'Script error.', sdk: true, server: true });
  });

  test("a script URL the SDK takes for a browser extension's is exactly one the server does", () => {
    const verdicts = SCHEMES.map((scheme) => {
      const url = `${scheme}://abcdef/content.js`;
      const server = groupEvent({ type: 'error', exception: { type: 'Error', value: 'x', stack: `Error: x\n    at inject (${url}:1:2)` } });
      return { scheme, sdk: isExtensionUrl(url), server: server.grouped === false && server.filtered === 'browser-extension' };
    });
    expect(verdicts.filter(({ sdk, server }) => sdk !== server)).toEqual([]);
    expect(verdicts.filter(({ sdk }) => sdk).map(({ scheme }) => scheme)).toEqual(
      expect.arrayContaining(['chrome-extension', 'moz-extension', 'safari-web-extension']),
    );
  });

  test('the SDK cuts each text field at the length the server keeps', () => {
    const long = (length: number) => 'x'.repeat(length + 100);
    const error = Object.assign(new Error(long(EVENT_TEXT.exceptionValue)), { name: long(EVENT_TEXT.exceptionType), stack: long(EVENT_TEXT.exceptionStack) });
    const { exception } = describeError(error);
    expect({
      message: describeMessage(long(EVENT_TEXT.message)).message?.length,
      type: exception?.type?.length,
      value: exception?.value?.length,
      stack: exception?.stack?.length,
    }).toEqual({
      message: EVENT_TEXT.message,
      type: EVENT_TEXT.exceptionType,
      value: EVENT_TEXT.exceptionValue,
      stack: EVENT_TEXT.exceptionStack,
    });
  });

  test('the SDK never puts more in one request than the server takes, whatever the options say', () => {
    const config = configure({ key: 'dfpk_x', baseUrl: 'https://api.example.com', maxBatchEvents: 1000, maxRequestBytes: 10_000_000 });
    expect({ events: config.maxBatchEvents, bytes: config.maxRequestBytes }).toEqual({ events: MAX_EVENTS_PER_REQUEST, bytes: INGEST_BODY_LIMIT_BYTES });
  });
});
