import { preflightOperation } from '../../../../lambda/ingest/api/preflight';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';
import { proxyEvent } from '../../../support/events';

test('a preflight allows POST with Authorization and Content-Type, for two hours, with no body', async () => {
  const answer = await preflightOperation()({ event: proxyEvent({ httpMethod: 'OPTIONS' }), state: newRequestState({}), body: undefined });
  expect(answer).toEqual({
    statusCode: 204,
    headers: { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'authorization, content-type', 'Access-Control-Max-Age': '7200' },
    body: '',
  });
});
