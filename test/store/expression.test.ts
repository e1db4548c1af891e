import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../../lambda/infrastructure/store/errors';
import { Expression, QueryExpression } from '../../lambda/infrastructure/store/expression';
import { getItem, putItem } from '../support/items';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The one builder every store writes its expressions with, held to what
 * DynamoDB Local does with what it builds: names that cannot be their own
 * placeholder, paths into maps, an operand used twice, and the clauses and
 * conditions the stores rely on.
 */
const doc = testDoc();
const SK = 'ct_00000000000000ee';

async function update(factoryId: string, expression: Expression) {
  return doc.send(new UpdateCommand({ TableName: tables.contacts, Key: { factoryId, sk: SK }, ...expression.forUpdate(), ReturnValues: 'ALL_NEW' }));
}

test('SET, REMOVE and ADD reach attributes with any name, reserved words and paths into maps included', async () => {
  const factoryId = newFactoryId('expr');
  await putItem({ factoryId, sk: SK, name: 'old', 'odd-name.x': 1, enrichment: { fields: { title: 'T', phone: 'P' } } });
  const expression = new Expression()
    .set('status', 'active')
    .set(['enrichment', 'at'], 'now')
    .remove('name')
    .remove(['enrichment', 'fields', 'title'])
    .add('odd-name.x', 2)
    .add('count', 1);
  const result = await update(factoryId, expression);
  expect(result.Attributes).toEqual({ factoryId, sk: SK, status: 'active', 'odd-name.x': 3, count: 1, enrichment: { at: 'now', fields: { phone: 'P' } } });
});

test('setOnce writes an attribute only where it has no value, and setSum adds an attribute to an operand used twice', async () => {
  const factoryId = newFactoryId('expr');
  await putItem({ factoryId, sk: SK, createdAt: 'first', step: 5 });
  const expression = new Expression();
  const now = expression.value(100);
  expression.setOnce('createdAt', 'second').setOnce('updatedAt', 'second').setSum('tat', now, expression.attribute('step')).set('seen', now);
  const result = await update(factoryId, expression);
  expect(result.Attributes).toMatchObject({ createdAt: 'first', updatedAt: 'second', tat: 105, seen: 100 });
});

test('conditions given together must all hold; or() holds when one of its conditions does', async () => {
  const factoryId = newFactoryId('expr');
  await putItem({ factoryId, sk: SK, status: 'active', lastRequest: 'r1' });
  const attempt = (request: string, status: string) => {
    const expression = new Expression();
    const token = expression.value(request);
    expression
      .set('lastRequest', token)
      .when(expression.is('status', '=', status), expression.or(expression.notExists('lastRequest'), expression.is('lastRequest', '<>', token)));
    return update(factoryId, expression).then(
      () => 'written',
      (error: unknown) => (isConditionalCheckFailed(error) ? 'refused' : Promise.reject(error)),
    );
  };
  expect(await attempt('r1', 'active')).toBe('refused');
  expect(await attempt('r2', 'revoked')).toBe('refused');
  expect(await attempt('r2', 'active')).toBe('written');
  expect((await getItem(factoryId, SK))?.lastRequest).toBe('r2');
});

test('a query built from key conditions, a filter and a projection returns the matching items with the projected attributes only', async () => {
  const factoryId = newFactoryId('expr');
  await putItem({ factoryId, sk: 'ct_00000000000000e1', email: 'a@example.com', enriched: true });
  await putItem({ factoryId, sk: 'ct_00000000000000e2', email: 'b@example.com' });
  await putItem({ factoryId, sk: 'company#example.com', email: 'c@example.com' });
  const query = new QueryExpression();
  query
    .key(query.is('factoryId', '=', factoryId), query.beginsWith('sk', 'ct_'))
    .filter(query.notExists('enriched'))
    .project('sk', 'email');
  const page = await doc.send(new QueryCommand({ TableName: tables.contacts, ...query.forQuery(), ConsistentRead: true }));
  expect(page.Items).toEqual([{ sk: 'ct_00000000000000e2', email: 'b@example.com' }]);
});
