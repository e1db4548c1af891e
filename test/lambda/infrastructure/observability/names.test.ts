import {
  SCRUBBED_METRIC,
  serviceNameFromEnv,
  SERVICE_NAME,
  stackMetricsNamespace,
  METRICS_NAMESPACE,
  LOG_LEVELS,
} from '../../../../lambda/infrastructure/observability/names';
import { SCRUB_RULE_NAMES } from '../../../../lambda/ingest/scrub/rule';

/** The names the functions write and the stack's alarms read. Each API's service through its entry: test/api/service-name.test.ts. */
describe('the service a function names', () => {
  test('is POWERTOOLS_SERVICE_NAME, as the stack sets it per function, trimmed', () => {
    expect(serviceNameFromEnv({ POWERTOOLS_SERVICE_NAME: ' contacts-ingest ' })).toBe('contacts-ingest');
  });

  test("is the fallback given (the API's own) when the variable is unset or blank, and the contacts API's without one", () => {
    expect(serviceNameFromEnv({}, 'contacts-ingest')).toBe('contacts-ingest');
    expect(serviceNameFromEnv({ POWERTOOLS_SERVICE_NAME: '   ' }, 'contacts-ingest')).toBe('contacts-ingest');
    expect(serviceNameFromEnv({})).toBe(SERVICE_NAME);
  });
});

test("a stack's metrics namespace is the service's with the stack's name, so two stacks never share a series", () => {
  expect(stackMetricsNamespace('ContactsDev')).toBe(`${METRICS_NAMESPACE}/ContactsDev`);
  expect(stackMetricsNamespace('ContactsDev')).not.toBe(stackMetricsNamespace('ContactsService'));
});

test('every scrubbing rule has its metric, and every metric a rule', () => {
  expect(Object.keys(SCRUBBED_METRIC).sort()).toEqual([...SCRUB_RULE_NAMES].sort());
});

test('the log levels run from the loudest to SILENT', () => {
  expect(LOG_LEVELS[0]).toBe('DEBUG');
  expect(LOG_LEVELS[LOG_LEVELS.length - 1]).toBe('SILENT');
});
