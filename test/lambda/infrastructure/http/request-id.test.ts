import { requestIdOf } from '../../../../lambda/infrastructure/http/request-id';
import { proxyEvent } from '../../../support/events';

describe('the id a caller can quote to us', () => {
  test("is API Gateway's request id", () => {
    expect(requestIdOf(proxyEvent({ requestContext: { requestId: 'gw-1' } as never }), { awsRequestId: 'lambda-1' })).toBe('gw-1');
  });

  test("is Lambda's request id where no gateway gave one", () => {
    expect(requestIdOf(proxyEvent(), { awsRequestId: 'lambda-1' })).toBe('lambda-1');
    expect(requestIdOf(proxyEvent({ requestContext: { requestId: '' } as never }), { awsRequestId: 'lambda-1' })).toBe('lambda-1');
  });
});
