import { runInNewContext } from 'node:vm';
import { DEBUG_ID_REGISTRY, debugIdSnippet, SENTRY_DEBUG_ID_REGISTRY } from '../../../../lambda/ingest/sourcemaps/debug-id-snippet';

const ID = '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2';

describe('the line inject puts atop a built script', () => {
  test('is one line', () => {
    expect(debugIdSnippet(ID)).not.toContain('\n');
  });

  test("records the script's own stack under its debug id, in the SDK's registry and Sentry's", () => {
    const page: Record<string, Record<string, string> | unknown> = {};
    runInNewContext(`var window = this; ${debugIdSnippet(ID)}`, page, { filename: 'https://shop.example.com/app.js' });
    for (const registry of [DEBUG_ID_REGISTRY, SENTRY_DEBUG_ID_REGISTRY]) {
      const entries = Object.entries(page[registry] as Record<string, string>);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toEqual([expect.stringContaining('https://shop.example.com/app.js'), ID]);
    }
  });

  test('never breaks the page: where reading a stack throws, nothing is recorded and nothing thrown', () => {
    const page: Record<string, unknown> = {
      Error: function Broken() {
        throw new Error('no');
      },
    };
    expect(() => runInNewContext(`var window = this; ${debugIdSnippet(ID)}`, page)).not.toThrow();
    expect(page[DEBUG_ID_REGISTRY]).toBeUndefined();
  });
});
