import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './names';

/**
 * The service's logger (Powertools Logger): JSON lines on stdout, which
 * CloudWatch Logs collects. Created once per container. The level comes from
 * `LOG_LEVEL` (DEBUG, INFO, WARN, ERROR, SILENT; default INFO), set by the
 * stack's `logLevel` option. Callers pass only safe fields: never a key, an
 * Authorization header, a query string or a request body.
 */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  logLevel: (process.env.LOG_LEVEL ?? 'INFO').toUpperCase() as 'INFO',
});
