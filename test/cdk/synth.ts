import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ContactsStack, type ContactsStackProps } from '../../lib/contacts-stack';

export const ENV = { account: '123456789012', region: 'eu-west-1' } as const;

/**
 * A ContactsStack for template assertions. Bundling is skipped (the
 * functions' code is not what these tests look at; stack.test.ts checks the
 * bundle), which keeps each synth to a second or two.
 */
export function synthStack(props: ContactsStackProps = {}, id = 'TestContacts'): { stack: ContactsStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ContactsStack(app, id, { env: ENV, ...props });
  return { stack, template: Template.fromStack(stack) };
}

/** Resources of a type whose properties match, by logical id. */
export function resourcesOf(template: Template, type: string, props: object = {}): Record<string, { Properties: Record<string, unknown>; [key: string]: unknown }> {
  return template.findResources(type, { Properties: props }) as Record<string, { Properties: Record<string, unknown> }>;
}
