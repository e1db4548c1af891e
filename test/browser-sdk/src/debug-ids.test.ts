import { debugIdsOf } from '../../../browser-sdk/src/debug-ids';

/** The registry `sourcemaps inject` makes each script write: its own stack, under its debug id. */
const REGISTRY = {
  'Error\n    at https://shop.example.com/assets/app-3f9a.js:1:34': '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2',
  'Error\n    at https://shop.example.com/assets/vendor-11aa.js:1:20': '9b5f0f6e-0c8a-4b1e-9f41-2f1f4d7e8a10',
};

describe('the debug ids of the scripts in a stack', () => {
  test('found by the URL each script was loaded from, as this browser wrote it', () => {
    const stack = 'TypeError: x\n    at o (https://shop.example.com/assets/app-3f9a.js:2:54)';
    expect(debugIdsOf(stack, REGISTRY)).toEqual({ 'https://shop.example.com/assets/app-3f9a.js': '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' });
  });

  test("Firefox's and Safari's stacks too, every script of the stack named", () => {
    const stack = 'o@https://shop.example.com/assets/app-3f9a.js:2:54\nv@https://shop.example.com/assets/vendor-11aa.js:1:9';
    expect(Object.keys(debugIdsOf(stack, REGISTRY) ?? {})).toEqual([
      'https://shop.example.com/assets/app-3f9a.js',
      'https://shop.example.com/assets/vendor-11aa.js',
    ]);
  });

  test('none when the page registered none, the stack names none, or there is no stack', () => {
    expect(debugIdsOf('TypeError: x\n    at https://other.example.com/a.js:1:1', REGISTRY)).toBeUndefined();
    expect(debugIdsOf('TypeError: x', undefined)).toBeUndefined();
    expect(debugIdsOf(undefined, REGISTRY)).toBeUndefined();
  });

  test("reads the page's own registry (_contactsDebugIds) when none is given", () => {
    (globalThis as { _contactsDebugIds?: Record<string, string> })._contactsDebugIds = REGISTRY;
    try {
      expect(debugIdsOf('at https://shop.example.com/assets/app-3f9a.js:2:54')).toEqual({
        'https://shop.example.com/assets/app-3f9a.js': '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2',
      });
    } finally {
      delete (globalThis as { _contactsDebugIds?: unknown })._contactsDebugIds;
    }
  });
});
