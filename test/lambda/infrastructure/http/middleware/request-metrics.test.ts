import { noCounts, notedCounts, requestOutcome } from '../../../../../lambda/infrastructure/http/middleware/request-metrics';
import { newRequestState } from '../../../../../lambda/infrastructure/http/request-state';
import { proxyEvent } from '../../../../support/events';

const state = () => ({ ...newRequestState({}), calls: { calls: 1, latenciesMs: [5] }, counts: { EventsAccepted: 2 } });

describe("what a request's metrics count", () => {
  test('its route and status, its DynamoDB calls, and what the API counts', () => {
    expect(requestOutcome({ event: proxyEvent(), state: state(), route: 'POST /ingest/v1/events', status: 202 }, notedCounts)).toEqual({
      route: 'POST /ingest/v1/events',
      status: 202,
      counts: { EventsAccepted: 2 },
      dynamo: { calls: 1, latenciesMs: [5] },
    });
  });

  test('an API that counts nothing adds no counts', () => {
    expect(requestOutcome({ event: proxyEvent(), state: state(), route: 'unmatched', status: 404 }, noCounts)).not.toHaveProperty('counts');
  });
});
