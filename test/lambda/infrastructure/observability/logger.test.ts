import { JsonLogger } from '../../../../lambda/infrastructure/observability/logger';

/** A logger at `level` writing into arrays instead of stdout and stderr. */
function capture(level: string) {
  const out: string[] = [];
  const err: string[] = [];
  const logger = new JsonLogger({ service: 'contacts-api', level, out: (line) => out.push(line), err: (line) => err.push(line) });
  const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, out, err, parsed };
}

describe('JsonLogger', () => {
  const trace = process.env._X_AMZN_TRACE_ID;
  afterEach(() => {
    if (trace === undefined) delete process.env._X_AMZN_TRACE_ID;
    else process.env._X_AMZN_TRACE_ID = trace;
  });

  test('writes one JSON line: level, message, timestamp, service first, then the attributes', () => {
    const { logger, out } = capture('INFO');
    logger.info('request', { requestId: 'r-1', status: 201, dynamoCalls: 2 });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/\n$/);
    expect(out[0]?.indexOf('\n')).toBe((out[0]?.length ?? 0) - 1);
    const entry = JSON.parse(out[0] as string) as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(['level', 'message', 'timestamp', 'service', 'requestId', 'status', 'dynamoCalls']);
    expect(entry).toMatchObject({ level: 'INFO', message: 'request', service: 'contacts-api', requestId: 'r-1', status: 201, dynamoCalls: 2 });
    expect(new Date(entry.timestamp as string).toISOString()).toBe(entry.timestamp);
  });

  test('writes DEBUG and INFO to stdout, WARN and ERROR to stderr', () => {
    const { logger, out, err, parsed } = capture('DEBUG');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(parsed(out).map((entry) => entry.level)).toEqual(['DEBUG', 'INFO']);
    expect(parsed(err).map((entry) => entry.level)).toEqual(['WARN', 'ERROR']);
  });

  test.each([
    ['INFO', ['INFO', 'WARN', 'ERROR']],
    ['warn', ['WARN', 'ERROR']],
    ['ERROR', ['ERROR']],
    ['SILENT', []],
    ['silent', []],
    ['verbose', ['INFO', 'WARN', 'ERROR']],
  ])('at LOG_LEVEL=%s writes %j', (level, expected) => {
    const { logger, out, err, parsed } = capture(level);
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect([...parsed(out), ...parsed(err)].map((entry) => entry.level)).toEqual(expected);
  });

  test("adds the invocation's X-Ray root trace id when the Lambda runtime sets one", () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    const { logger, out, parsed } = capture('INFO');
    logger.info('request');
    expect(parsed(out)[0]?.xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });

  test('writes no xray_trace_id outside Lambda', () => {
    delete process.env._X_AMZN_TRACE_ID;
    const { logger, out, parsed } = capture('INFO');
    logger.info('request');
    expect(parsed(out)[0]).not.toHaveProperty('xray_trace_id');
  });

  test('keeps its own fields when an attribute has the same name', () => {
    const { logger, out, parsed } = capture('INFO');
    logger.info('request', { level: 'DEBUG', message: 'other', service: 'x', status: 200 });
    expect(parsed(out)[0]).toMatchObject({ level: 'INFO', message: 'request', service: 'contacts-api', status: 200 });
  });

  test('writes an Error attribute with its name, message and stack', () => {
    const { logger, err, parsed } = capture('INFO');
    logger.error('unexpected error', { error: new TypeError('boom') });
    expect(parsed(err)[0]?.error).toMatchObject({ name: 'TypeError', message: 'boom', stack: expect.stringContaining('TypeError: boom') });
  });

  test('never throws on what plain JSON cannot write (a BigInt, a cycle)', () => {
    const { logger, out, parsed } = capture('INFO');
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(() => logger.info('odd', { count: 10n, cycle })).not.toThrow();
    expect(parsed(out)[0]).toMatchObject({ count: '10', cycle: { name: 'loop', self: '[Circular]' } });
  });
});
