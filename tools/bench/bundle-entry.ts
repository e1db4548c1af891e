import { build } from 'esbuild';

/**
 * A benchmark helper as one plain CommonJS file (esbuild, no minification),
 * run by `node` with no TypeScript loader. What runs is then what ships:
 * the Lambda asset is an esbuild bundle too, while under tsx every function
 * of the project and of its ESM packages is wrapped at creation in a
 * `__name` call (keepNames), which a request's closures would pay for on
 * every request. Used for every process whose time or instructions count
 * (the throughput helpers, the instruction driver); the profiled runs keep
 * tsx, whose per-file paths the profile's attribution needs.
 */
export async function bundleEntry(entry: string, outfile: string): Promise<string> {
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile, logLevel: 'error' });
  return outfile;
}
