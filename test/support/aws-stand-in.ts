import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the two AWS APIs `npm run status` reads, on a free local
 * port, reached by the real SDK clients through AWS_ENDPOINT_URL: CloudFormation's
 * DescribeStacks (the query protocol, XML) and Lambda's GetAlias and
 * GetFunctionConfiguration (REST JSON), answering from `state`.
 */
export interface FunctionState {
  live: string;
  weights?: Record<string, number>;
  /** Description by version; `$LATEST` for the function's own. */
  descriptions: Record<string, string>;
}

export interface StandInState {
  stackName: string;
  stackStatus: string;
  outputs: Record<string, string>;
  functions: Record<string, FunctionState>;
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function describeStacks(state: StandInState): string {
  const outputs = Object.entries(state.outputs)
    .map(([key, value]) => `<member><OutputKey>${xmlEscape(key)}</OutputKey><OutputValue>${xmlEscape(value)}</OutputValue></member>`)
    .join('');
  return `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${xmlEscape(state.stackName)}</StackName><StackId>arn:aws:cloudformation:eu-west-1:123456789012:stack/${xmlEscape(state.stackName)}/1</StackId><CreationTime>2026-11-01T00:00:00Z</CreationTime><StackStatus>${state.stackStatus}</StackStatus><Outputs>${outputs}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></DescribeStacksResponse>`;
}

export async function startAwsStandIn(state: StandInState): Promise<{ endpoint: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      requests.push(`${req.method} ${url.pathname}${url.search}${body ? ` ${body}` : ''}`);
      if (req.method === 'POST' && url.pathname === '/' && new URLSearchParams(body).get('Action') === 'DescribeStacks') {
        res.writeHead(200, { 'content-type': 'text/xml' }).end(describeStacks(state));
        return;
      }
      const alias = /^\/2015-03-31\/functions\/([^/]+)\/aliases\/([^/]+)$/.exec(url.pathname);
      const config = /^\/2015-03-31\/functions\/([^/]+)\/configuration$/.exec(url.pathname);
      const fn = state.functions[decodeURIComponent(alias?.[1] ?? config?.[1] ?? '')];
      if (!fn) {
        res
          .writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' })
          .end(JSON.stringify({ message: 'Function not found' }));
        return;
      }
      if (alias) {
        const routing = fn.weights ? { RoutingConfig: { AdditionalVersionWeights: fn.weights } } : {};
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Name: alias[2], FunctionVersion: fn.live, ...routing }));
        return;
      }
      const qualifier = url.searchParams.get('Qualifier') ?? '$LATEST';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ Version: qualifier, Description: fn.descriptions[qualifier] ?? '', LastModified: '2026-11-20T10:00:00.000+0000' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
