import { newContactsSlot } from '../../../../lambda/contacts/api/contacts-slot';

test("each request's contacts slot starts empty and is its own: nothing of one request reaches the next", () => {
  const first = newContactsSlot();
  first.rate = { limit: 10, remaining: 9, windowSeconds: 1 };
  const second = newContactsSlot();
  expect(second).toEqual({});
  expect(second).not.toBe(first);
});
