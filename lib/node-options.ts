/**
 * The Node.js options every function of the stack runs with, set as its
 * NODE_OPTIONS (Lambda's Node.js runtime starts node with the variable as
 * given), and how a process started here passes them on to a node that may
 * not know them.
 *
 * `--experimental-async-context-frame` (Node.js 22.7 and later; the default
 * from Node.js 24): AsyncLocalStorage kept by V8's continuation data instead
 * of async_hooks' promise hooks, which every promise of the process pays for
 * once a store is in use. The request's call log
 * (lambda/infrastructure/observability/call-log.ts) is such a store; the
 * ingest function's CPU per lone error drops by about a tenth with it
 * (docs/performance.md#the-call-log).
 */
export const FUNCTION_NODE_OPTIONS: readonly string[] = ['--experimental-async-context-frame'];

/**
 * `env` with its NODE_OPTIONS cut to the flags a node accepting `allowed`
 * takes there: a flag it does not know stops it before any code runs
 * ("not allowed in NODE_OPTIONS"), so the functions' environment, meant for
 * Lambda's Node.js 22, can still start an older local node. Without
 * NODE_OPTIONS, `env` as it is.
 */
export function runnableNodeOptions<T extends Record<string, string | undefined>>(
  env: T,
  allowed: ReadonlySet<string> = process.allowedNodeEnvironmentFlags,
): T {
  const options = env.NODE_OPTIONS;
  if (options === undefined) return env;
  const kept = options
    .split(/\s+/)
    .filter((flag) => flag !== '' && allowed.has(flag.split('=')[0] as string))
    .join(' ');
  const { NODE_OPTIONS: _dropped, ...rest } = env;
  return (kept === '' ? rest : { ...rest, NODE_OPTIONS: kept }) as T;
}
