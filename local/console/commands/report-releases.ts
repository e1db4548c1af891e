/**
 * The release health subcommands of `reports` (docs/release-health.md):
 *   releases --factory F [--environment E] [--limit N] [--cursor C]
 *   release --factory F --release R [--environment E]
 * Control-room operations as the issue subcommands are (./report-issues.ts): in this process on the local store, or
 * with --stack/--url through the deployed control-room function.
 */
import type { ControlOperation } from '../../../lambda/control/operation';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { RELEASES_DEFAULT, RELEASES_MAX } from '../../../lambda/control/release-operations';
import { printJson } from '../../harness/cli';
import { checkedCall, connectControl } from '../control/client';
import { fieldOptions, inFlagWords, requestFromFlags, usageLine, type CommandShape, type TableCommand } from '../control/command-line';

export const RELEASE_KINDS = ['releases', 'release'] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

const COMMANDS: Record<ReleaseKind, TableCommand> = {
  releases: { words: 'releases', operation: 'releases.list', fields: (CONTROL_OPERATIONS.get('releases.list') as ControlOperation).fields },
  release: { words: 'release', operation: 'releases.show', fields: (CONTROL_OPERATIONS.get('releases.show') as ControlOperation).fields },
};

const SHAPE: CommandShape = { missing: (_words, flag) => `${flag} is required` };

export const RELEASE_OPTIONS = fieldOptions(Object.values(COMMANDS));

export const RELEASE_USAGE = `  ${usageLine(COMMANDS.releases, SHAPE)}
                                        the factory's releases that sent sessions, newest first, one JSON
                                        object per line (default ${RELEASES_DEFAULT}, at most ${RELEASES_MAX}): sessions, crashed,
                                        crash-free sessions and users (0 to 1), adoption over the last 24 h;
                                        the next page's --cursor on stderr
  ${usageLine(COMMANDS.release, SHAPE)}
                                        one release: the same, its hourly buckets, its new and regressed issues`;

const WHERE = ['stack', 'region', 'url'];

export async function runReleaseCommand(kind: ReleaseKind, values: Record<string, unknown> & { stack?: string; region?: string; url?: string }): Promise<void> {
  const command = COMMANDS[kind];
  const request = checkedCall(requestFromFlags(command, SHAPE, values, WHERE), inFlagWords(command));
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    const answer = await client.call(request);
    if (kind === 'releases') {
      for (const release of answer.releases as unknown[]) process.stdout.write(`${JSON.stringify(release)}\n`);
      if (typeof answer.cursor === 'string') process.stdout.write(`${JSON.stringify({ cursor: answer.cursor })}\n`);
    } else {
      printJson(answer);
    }
  } finally {
    await client.close();
  }
}
