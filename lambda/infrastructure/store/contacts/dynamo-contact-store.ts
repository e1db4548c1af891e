import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ContactStore, ContactWrite, CompanyRecord } from '../../../contacts/domain/ports';
import { itemToContact } from './contact-item';
import { ContactsTable } from './contacts-table';
import { isConditionalCheckFailed, storageCall } from '../errors';
import { Expression } from '../expression';
import { companySortKey } from '../schema';

/** Companies a container remembers as existing, at most; then it starts over (a forgotten one costs one refused write). */
const KNOWN_COMPANIES_MAX = 10_000;

/** ContactStore on one DynamoDB table (key schema in ../schema.ts). */
export class DynamoContactStore extends ContactsTable implements ContactStore {
  /**
   * Companies this container has seen exist: created by it, or found
   * already created (the condition refused). Companies are never deleted
   * through the API, so a later upsert naming one skips its write, one
   * round less. Filled only once a write answered, so a failed create is
   * still retried.
   */
  private readonly knownCompanies = new Set<string>();

  /**
   * One UpdateItem: sent fields overwrite, set-once fields (createdAt, the
   * company link, the creation token) use if_not_exists, `source` defaults to
   * `api` only on creation. ALL_NEW returns the merged record, and the
   * creation token in it tells whether this very request created it, which
   * stays right under races and SDK retries.
   */
  async writeContact(write: ContactWrite) {
    const update = new Expression()
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
          ...update.forUpdate(),
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
    const known = `${company.factoryId}#${company.id}`;
    if (this.knownCompanies.has(known)) return;
    const create = new Expression();
    const id = create.value(company.id);
    create
      .set('id', id)
      .set('companyId', id)
      .set('domain', company.domain)
      .set('name', company.name)
      .set('createdAt', company.createdAt)
      .when(create.notExists('sk'));
    try {
      await storageCall('UpdateItem (company create)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { factoryId: company.factoryId, sk: companySortKey(company.domain) },
            ...create.forUpdate(),
          }),
        ),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error; // exists already: nothing to do
    }
    if (this.knownCompanies.size >= KNOWN_COMPANIES_MAX) this.knownCompanies.clear();
    this.knownCompanies.add(known);
  }
}
