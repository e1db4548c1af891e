type Level = 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { info: 0, warn: 1, error: 2, silent: 3 };

// Read once per container; LOG_LEVEL=silent keeps test output clean.
const threshold = ORDER[(process.env.LOG_LEVEL as Level | 'silent' | undefined) ?? 'info'] ?? 0;

/**
 * One JSON line per event on stdout (CloudWatch Logs on AWS). Callers pass
 * only safe fields: never a key, an Authorization header or a request body.
 */
export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold) return;
  process.stdout.write(`${JSON.stringify({ level, message, time: new Date().toISOString(), ...fields })}\n`);
}
