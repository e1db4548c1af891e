import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PersonSecret } from '../../../kernel/person-key';
import type { SuppressionSecret } from '../../../contacts/domain/vendor-suppression';
import { PERSON_SECRET_KEY, SUPPRESSION_SECRET_KEY } from '../schema';
import { DynamoServiceSecret } from './dynamo-service-secret';

/**
 * The person secret (lambda/kernel/person-key.ts) in the keys table, apart
 * from the reports that carry the keys it makes (./dynamo-service-secret.ts).
 */
export class DynamoPersonSecret extends DynamoServiceSecret implements PersonSecret {
  constructor(doc: DynamoDBDocumentClient, tableName: string) {
    super(doc, tableName, PERSON_SECRET_KEY, 'person secret');
  }
}

/**
 * The suppression secret (lambda/contacts/domain/vendor-suppression.ts) in the keys
 * table, apart from the reference table that holds the keys it makes.
 */
export class DynamoSuppressionSecret extends DynamoServiceSecret implements SuppressionSecret {
  constructor(doc: DynamoDBDocumentClient, tableName: string) {
    super(doc, tableName, SUPPRESSION_SECRET_KEY, 'suppression secret');
  }
}
