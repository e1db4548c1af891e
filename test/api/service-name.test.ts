import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { INGEST_SERVICE_NAME, SERVICE_NAME } from '../../lambda/infrastructure/observability/names';
import { lambdaContext, proxyEvent } from '../support/events';
import { linesWrittenBy } from '../support/output';

/**
 * Which service a request's log line and metrics name. On AWS the stack sets
 * POWERTOOLS_SERVICE_NAME for each function; `npm start` serves both APIs
 * from one process without it, where each API names its own service.
 */
async function handlersWith(env: Record<string, string | undefined>): Promise<{ contacts: ApiHandler; ingest: ApiHandler }> {
  const names = ['LOG_LEVEL', 'POWERTOOLS_METRICS_DISABLED', 'POWERTOOLS_SERVICE_NAME'] as const;
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const name of names) {
      if (values[name] === undefined) delete process.env[name];
      else process.env[name] = values[name];
    }
  };
  set({ LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false', ...env });
  try {
    // The settings are read once per container, when the entry is loaded: a fresh copy of the modules.
    let handlers: { contacts: ApiHandler; ingest: ApiHandler } | undefined;
    await jest.isolateModulesAsync(async () => {
      handlers = {
        contacts: (await import('../../lambda/contacts/api/contacts-entry')).handler,
        ingest: (await import('../../lambda/ingest/api/ingest-entry')).handler,
      };
    });
    return handlers!;
  } finally {
    set(saved);
  }
}

/** The JSON documents one request writes (its log line, its metrics), answered without DynamoDB. */
async function recordsOf(handler: ApiHandler, path: string): Promise<Record<string, unknown>[]> {
  return (await linesWrittenBy(() => handler(proxyEvent({ path, httpMethod: 'GET' }), lambdaContext()))).lines;
}

describe('the service a request is recorded under', () => {
  test('without POWERTOOLS_SERVICE_NAME (npm start), each API names its own service in its log line and metrics', async () => {
    const { contacts, ingest } = await handlersWith({ POWERTOOLS_SERVICE_NAME: undefined });
    const contactRecords = await recordsOf(contacts, '/api/v1/nothing-here');
    const ingestRecords = await recordsOf(ingest, '/ingest/v1/nothing-here');
    expect(contactRecords.length).toBe(2);
    expect(ingestRecords.length).toBe(2);
    for (const record of contactRecords) expect(record.service).toBe(SERVICE_NAME);
    for (const record of ingestRecords) expect(record.service).toBe(INGEST_SERVICE_NAME);
  });

  test('POWERTOOLS_SERVICE_NAME, as the stack sets it per function, names the service of both', async () => {
    const { contacts, ingest } = await handlersWith({ POWERTOOLS_SERVICE_NAME: 'renamed-service' });
    const records = [...(await recordsOf(contacts, '/api/v1/nothing-here')), ...(await recordsOf(ingest, '/ingest/v1/nothing-here'))];
    expect(records.length).toBe(4);
    for (const record of records) expect(record.service).toBe('renamed-service');
  });
});
