/**
 * A problem the person running a command can fix. Commands print its message
 * as one line (no stack trace) and exit non-zero.
 */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/**
 * The run runMain started, settled once the command's work and its error
 * handling are done. A process then ends by itself; a test that runs the
 * entry file in its own process (test/support/commands.ts) waits on this.
 */
export let commandRun: Promise<void> | undefined;

/** Runs a command's main function: SetupError → one line on stderr; anything else → its stack. */
export function runMain(main: () => Promise<void>): void {
  // The SDK warns on every command that Node 20 support ends in 2027; docs/development.md#dependencies says so once.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  commandRun = main().catch((error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`error: ${error.message}\n`);
    } else {
      process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  });
}
