import { InvalidCursorError, StorageThrottledError, StorageUnavailableError } from '../../../lambda/kernel/errors';

describe('the errors a port may throw', () => {
  test("a storage failure names the operation and its cause's class and message, and keeps the cause", () => {
    const cause = new TypeError('socket hang up');
    const error = new StorageUnavailableError('UpdateItem (contact)', cause);
    expect(error.message).toBe('UpdateItem (contact) failed: TypeError: socket hang up');
    expect(error.name).toBe('StorageUnavailableError');
    expect(error.cause).toBe(cause);
  });

  test('a cause that is not an Error is written as text', () => {
    expect(new StorageUnavailableError('Query', 'timeout').message).toBe('Query failed: timeout');
  });

  test('throttling is a storage failure of its own kind (the API answers 429, not 503)', () => {
    const error = new StorageThrottledError('PutItem (event)', new Error('ProvisionedThroughputExceededException'));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error.name).toBe('StorageThrottledError');
  });

  test('a bad cursor is its own error, not a storage failure', () => {
    const error = new InvalidCursorError('cursor is not one this service handed out');
    expect(error.name).toBe('InvalidCursorError');
    expect(error).not.toBeInstanceOf(StorageUnavailableError);
  });
});
