import type * as SdkConsole from '../../../browser-sdk/src/console';

/** The SDK's notes to the page's developer: each kind once per page (a fresh module is a fresh page). */
const page = (): typeof SdkConsole => {
  let loaded: typeof SdkConsole | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<typeof SdkConsole>('../../../browser-sdk/src/console');
  });
  return loaded as typeof SdkConsole;
};

let warn: jest.SpyInstance;
let error: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  warn.mockRestore();
  error.mockRestore();
});

test("each kind of note is said once per page, prefixed with the SDK's name", () => {
  const { tellOnce } = page();
  tellOnce('full', 'the queue is full');
  tellOnce('full', 'the queue is full again');
  tellOnce('gave-up', 'gave up');
  expect(warn.mock.calls).toEqual([['[ContactsIngest] the queue is full'], ['[ContactsIngest] gave up']]);
});

test('a refusal is said as an error; another page says it again', () => {
  page().tellOnce('refused', 'wrong key', 'error');
  page().tellOnce('refused', 'wrong key', 'error');
  expect(error.mock.calls).toEqual([['[ContactsIngest] wrong key'], ['[ContactsIngest] wrong key']]);
});
