import { buildSync } from 'esbuild';
import { join } from 'node:path';

/**
 * The unmodified @sentry/browser as a page loads it: the package ships ES modules only, so the tests bundle the
 * calls they use (`names`: init, captureException and flush unless named) into one minified script (global `Sentry`) with the repository's esbuild. The caller stops
 * esbuild's service once its builds are done (the run's teardown counts a left-over process).
 */
export function sentryBrowserBundle(names: readonly string[] = ['init', 'captureException', 'flush']): string {
  const built = buildSync({
    stdin: { contents: `export { ${names.join(', ')} } from '@sentry/browser';`, resolveDir: join(__dirname, '..', '..'), loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'Sentry',
    minify: true,
    target: 'es2020',
    write: false,
  });
  const script = built.outputFiles[0];
  if (!script) throw new Error('esbuild wrote no Sentry bundle');
  return script.text;
}
