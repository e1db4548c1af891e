import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';

/**
 * The ingest function's entry point loaded afresh under the given log and metrics settings: the logger and the
 * metrics read them once, at load, so a test that looks at the lines needs its own copy of the modules.
 */
export async function ingestEntryWith(env: { LOG_LEVEL: string; POWERTOOLS_METRICS_DISABLED: string; POWERTOOLS_SERVICE_NAME: string }): Promise<ApiHandler> {
  const names = Object.keys(env) as (keyof typeof env)[];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    let handler: ApiHandler | undefined;
    await jest.isolateModulesAsync(async () => {
      handler = (await import('../../lambda/ingest/api/ingest-entry')).handler as ApiHandler;
    });
    return handler as ApiHandler;
  } finally {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}
