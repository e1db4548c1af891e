import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { CONTACTS_BY_COMPANY } from '../../lambda/infrastructure/store/schema';
import { ensureTables } from '../../local/harness/tables';
import { endpoint } from '../support/local-api';

/**
 * The local tables follow lib/table-specs.ts also when they were made by an
 * older version: `npm start` (and a command opening .data/ itself) adds a
 * missing index, built from the items already there.
 */
test('a contacts table made before the byCompany index gets it, with the contacts already linked', async () => {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 10_000, endpoint: endpoint() });
  const doc = documentClientOf(client);
  const suffix = randomBytes(4).toString('hex');
  const names = {
    contacts: `old-contacts-${suffix}`,
    keys: `old-keys-${suffix}`,
    reference: `old-reference-${suffix}`,
    reports: `old-reports-${suffix}`,
    alerts: `old-alerts-${suffix}`,
  };
  try {
    // The contacts table as the previous version created it: no index.
    await client.send(
      new CreateTableCommand({
        TableName: names.contacts,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'factoryId', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'factoryId', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    await doc.send(new PutCommand({ TableName: names.contacts, Item: { factoryId: 'fac_old', sk: 'ct_0000000000000001', companyId: 'co_0000000000000001' } }));

    const created = await ensureTables(client, names);
    expect(created).toEqual([`${names.contacts}/${CONTACTS_BY_COMPANY.indexName}`, names.keys, names.reference, names.reports, names.alerts]);
    const table = (await client.send(new DescribeTableCommand({ TableName: names.contacts }))).Table;
    expect(table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus])).toEqual([[CONTACTS_BY_COMPANY.indexName, 'ACTIVE']]);
    const linked = await doc.send(
      new QueryCommand({
        TableName: names.contacts,
        IndexName: CONTACTS_BY_COMPANY.indexName,
        KeyConditionExpression: 'companyId = :co',
        ExpressionAttributeValues: { ':co': 'co_0000000000000001' },
      }),
    );
    expect(linked.Items?.map((item) => item.sk)).toEqual(['ct_0000000000000001']);
    expect(await ensureTables(client, names)).toEqual([]);
  } finally {
    for (const name of Object.values(names)) await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
    client.destroy();
  }
}, 60_000);
