import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { PlatformTopic } from './ports';

/** The platform team's alert topic (e-mail subscribers from the stack's alertEmails option). */
export class SnsPlatformTopic implements PlatformTopic {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
  ) {}

  async publish(subject: string, message: string): Promise<void> {
    // SNS subjects: ASCII printable, no line breaks, under 100 characters.
    const cleanSubject = subject.replace(/[^\x20-\x7e]/g, '?').slice(0, 99);
    await this.sns.send(new PublishCommand({ TopicArn: this.topicArn, Subject: cleanSubject, Message: message }));
  }
}
