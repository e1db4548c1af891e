import { App, type AppProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContactsStack, type ContactsStackProps } from '../../lib/contacts-stack';

export const ENV = { account: '123456789012', region: 'eu-west-1' } as const;

const outdirs: string[] = [];

/**
 * An App whose cloud assembly goes to a folder of its own, removed after the
 * test file: without an outdir, CDK leaves a cdk.out* folder in the system's
 * temporary directory for every App, run after run.
 */
export function testApp(props: AppProps = {}): App {
  const outdir = mkdtempSync(join(tmpdir(), 'contacts-cdk-test-'));
  outdirs.push(outdir);
  return new App({ ...props, outdir });
}

afterAll(() => {
  for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
});

/**
 * A ContactsStack for template assertions. Bundling is skipped (the
 * functions' code is not what these tests look at; stack.test.ts checks the
 * bundle), and so is aws-cdk-lib's CloudFormation validation at synth, some
 * 40 % of a synth (toolchain notes): these files read the template's
 * properties; stack.test.ts and nag.test.ts synthesize with it on.
 */
export function synthStack(props: ContactsStackProps = {}, id = 'TestContacts'): { stack: ContactsStack; template: Template } {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ContactsStack(app, id, { env: ENV, ...props });
  const validation = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = 'false';
  try {
    return { stack, template: Template.fromStack(stack) };
  } finally {
    if (validation === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = validation;
  }
}

/** Resources of a type whose properties match, by logical id. */
export function resourcesOf(
  template: Template,
  type: string,
  props: object = {},
): Record<string, { Properties: Record<string, unknown>; [key: string]: unknown }> {
  return template.findResources(type, { Properties: props }) as Record<string, { Properties: Record<string, unknown> }>;
}
