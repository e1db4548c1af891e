import { newIngestSlot } from '../../../../lambda/ingest/api/ingest-slot';

test("each ingest request's slot starts empty and is its own", () => {
  const first = newIngestSlot();
  first.client = { origin: 'https://a.example' };
  expect(newIngestSlot()).toEqual({});
});
