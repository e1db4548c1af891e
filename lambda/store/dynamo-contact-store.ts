import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContactStore, ContactWrite, CompanyRecord } from '../domain/ports';
import { isConditionalCheckFailed, storageCall } from './errors';
import { itemToContact } from './contact-item';
import { companySortKey } from './schema';

/** Collects the parts of an update expression with safe placeholder names. */
class UpdateBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly sets: string[] = [];

  set(attribute: string, value: unknown): this {
    this.sets.push(`${this.name(attribute)} = ${this.value(attribute, value)}`);
    return this;
  }

  /** Sets the attribute only if it has no value yet (set-once fields). */
  setOnce(attribute: string, value: unknown): this {
    const name = this.name(attribute);
    this.sets.push(`${name} = if_not_exists(${name}, ${this.value(attribute, value)})`);
    return this;
  }

  expression(): string {
    return `SET ${this.sets.join(', ')}`;
  }

  private name(attribute: string): string {
    const placeholder = `#${attribute}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  private value(attribute: string, value: unknown): string {
    const placeholder = `:${attribute}`;
    this.values[placeholder] = value;
    return placeholder;
  }
}

/** ContactStore on one DynamoDB table (key schema in ./schema). */
export class DynamoContactStore implements ContactStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One UpdateItem: sent fields overwrite, set-once fields (createdAt, the
   * company link, the creation token) use if_not_exists, `source` defaults to
   * `api` only on creation. ALL_NEW returns the merged record, and the
   * creation token in it tells whether this very request created it, which
   * stays right under races and SDK retries.
   */
  async writeContact(write: ContactWrite) {
    const update = new UpdateBuilder()
      .set('email', write.email)
      .set('updatedAt', write.now)
      .setOnce('createdAt', write.now)
      .setOnce('creationToken', write.creationToken);
    if (write.source === undefined) update.setOnce('source', 'api');
    else update.set('source', write.source);
    for (const [field, value] of Object.entries(write.fields)) update.set(field, value);
    if (write.companyId !== undefined) update.setOnce('companyId', write.companyId);

    const result = await storageCall('UpdateItem (contact upsert)', () =>
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { factoryId: write.factoryId, sk: write.id },
          UpdateExpression: update.expression(),
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: update.values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    const item = result.Attributes ?? {};
    return { contact: itemToContact(item), created: item.creationToken === write.creationToken };
  }

  /**
   * Conditional create keyed by domain: the first writer's name wins, later
   * ones change nothing. The item carries its id as `companyId` too, so it
   * sits in the byCompany index beside the contacts linked to it.
   */
  async createCompanyIfMissing(company: CompanyRecord): Promise<void> {
    try {
      await storageCall('UpdateItem (company create)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { factoryId: company.factoryId, sk: companySortKey(company.domain) },
            UpdateExpression: 'SET #id = :id, #companyId = :id, #domain = :domain, #name = :name, #createdAt = :createdAt',
            ConditionExpression: 'attribute_not_exists(#sk)',
            ExpressionAttributeNames: {
              '#id': 'id',
              '#companyId': 'companyId',
              '#domain': 'domain',
              '#name': 'name',
              '#createdAt': 'createdAt',
              '#sk': 'sk',
            },
            ExpressionAttributeValues: {
              ':id': company.id,
              ':domain': company.domain,
              ':name': company.name,
              ':createdAt': company.createdAt,
            },
          }),
        ),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error; // exists already: nothing to do
    }
  }

  async getContact(factoryId: string, id: string) {
    const result = await storageCall('GetItem (contact)', () =>
      this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: { factoryId, sk: id }, ConsistentRead: true }),
      ),
    );
    return result.Item && itemToContact(result.Item);
  }
}
