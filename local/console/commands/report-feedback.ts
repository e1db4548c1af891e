/**
 * The user feedback subcommand of `reports` (docs/feedback.md):
 *   feedback --factory F [--issue iss_…] [--limit N] [--cursor C]
 * A control-room operation as the release subcommands are (./report-releases.ts): in this process on the local
 * store, or with --stack/--url through the deployed control-room function.
 */
import type { ControlOperation } from '../../../lambda/control/operation';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { FEEDBACK_DEFAULT, FEEDBACK_MAX } from '../../../lambda/control/feedback-operations';
import { checkedCall, connectControl } from '../control/client';
import { fieldOptions, inFlagWords, requestFromFlags, usageLine, type CommandShape, type TableCommand } from '../control/command-line';

export const FEEDBACK_KINDS = ['feedback'] as const;

const COMMAND: TableCommand = { words: 'feedback', operation: 'feedback.list', fields: (CONTROL_OPERATIONS.get('feedback.list') as ControlOperation).fields };
const SHAPE: CommandShape = { missing: (_words, flag) => `${flag} is required` };

export const FEEDBACK_OPTIONS = fieldOptions([COMMAND]);

export const FEEDBACK_USAGE = `  ${usageLine(COMMAND, SHAPE)}
                                        user feedback (Sentry feedback and user reports), newest first, one JSON
                                        object per line (default ${FEEDBACK_DEFAULT}, at most ${FEEDBACK_MAX}): message, issueId when tied
                                        to an event's issue, contactId when its email is a contact's; then
                                        {"cursor": …} when more remain (pass it back as --cursor); --issue: that issue's`;

const WHERE = ['stack', 'region', 'url'];

export async function runFeedbackCommand(values: Record<string, unknown> & { stack?: string; region?: string; url?: string }): Promise<void> {
  const request = checkedCall(requestFromFlags(COMMAND, SHAPE, values, WHERE), inFlagWords(COMMAND));
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    const answer = await client.call(request);
    for (const feedback of answer.feedback as unknown[]) process.stdout.write(`${JSON.stringify(feedback)}\n`);
    if (typeof answer.cursor === 'string') process.stdout.write(`${JSON.stringify({ cursor: answer.cursor })}\n`);
  } finally {
    await client.close();
  }
}
