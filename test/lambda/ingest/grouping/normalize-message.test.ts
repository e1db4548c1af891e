import { MESSAGE_KEY_MAX, normalizeMessage } from '../../../../lambda/ingest/grouping/normalize-message';

describe('normalizeMessage', () => {
  test.each([
    ['Order 1234 not found', 'Order <n> not found'],
    ["Cannot read properties of undefined (reading 'id')", 'Cannot read properties of undefined (reading <str>)'],
    ['User 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 has no cart', 'User <uuid> has no cart'],
    ['Failed to fetch https://api.h.com/v1/carts/77?x=1', 'Failed to fetch <url>'],
    ['object 0x7ffee3b0 and deadbeef42 gone', 'object <hex> and <hex> gone'],
    ['mail ada@example.com   bounced', 'mail <email> bounced'],
  ])('%s → %s', (message, normalized) => {
    expect(normalizeMessage(message)).toBe(normalized);
  });
});

test('at most 500 characters of it decide the group', () => {
  expect(normalizeMessage('word '.repeat(500))).toHaveLength(MESSAGE_KEY_MAX);
});
