import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest, type ControlAnswer } from '../../lambda/control/handle-request';
import { normalizeEmail, type StoredEmail } from '../../lambda/kernel/email';
import { SuppressionKeys } from '../../lambda/contacts/domain/vendor-suppression';
import { DEFAULT_DYNAMO_CONFIG, createDynamoClient, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoSuppressionSecret } from '../../lambda/infrastructure/store/keys/dynamo-person-secret';
import { ReferenceWriter, type Pause } from '../../lambda/infrastructure/store/reference/reference-writer';
import { newFactoryId, tables, testDoc } from '../support/local-api';
import { startTestProxy, type TestProxy } from '../support/semantics';

/**
 * An erasure racing a load of the vendor's dataset (docs/privacy.md#the-vendors-record),
 * on the semantics proxy, which raises the transaction conflicts DynamoDB
 * does: each interleaving is made by holding one side at a chosen step (a
 * proxy gate, or the loader's own client holding its transaction), never
 * hoped for. Whichever it is, the vendor's record of the erased person is
 * gone afterwards, and the load says it left them out when its write came
 * after the suppression.
 */
const BY = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/dpo' };

let proxy: TestProxy;
let clients: DynamoDBClient[];
beforeEach(async () => {
  proxy = await startTestProxy({ throttling: false });
  clients = [];
});
afterEach(async () => {
  for (const client of clients) client.destroy();
  await proxy.close();
});

/** A document client on the proxy (no SDK retries), and a switch that holds its next TransactWriteItems before it is sent. */
function clientOnProxy(): { doc: DynamoDBDocumentClient; holdNextTransaction(): { reached: Promise<void>; release(): void } } {
  const base = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: proxy.endpoint, maxAttempts: 1 });
  clients.push(base);
  let armed: { arrive: () => void; released: Promise<void> } | undefined;
  base.middlewareStack.add(
    (next, context) => async (args) => {
      if (armed && context.commandName === 'TransactWriteItemsCommand') {
        const { arrive, released } = armed;
        armed = undefined;
        arrive();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdTransaction' },
  );
  return {
    doc: documentClientOf(base),
    holdNextTransaction() {
      let arrive!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      armed = { arrive, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached, release };
    },
  };
}

/** A loader (the writer `enrich -- load-dataset` uses) on its own client, its pauses given by the test; a person the vendor knows, loaded by it. */
async function vendorKnows(pause?: Pause) {
  const loader = clientOnProxy();
  const writer = new ReferenceWriter(
    loader.doc,
    tables.reference,
    new SuppressionKeys(new DynamoSuppressionSecret(loader.doc, tables.keys)),
    pause ?? (async () => undefined),
  );
  const checked = normalizeEmail(`ada.${randomUUID().slice(0, 8)}@engines.example`);
  if (!checked.ok) throw new Error(checked.problem);
  const email: StoredEmail = checked.email;
  // The first write also reads the suppression secret: the loader's container is warm before any race.
  expect(await writer.write([{ email, title: 'Countess' }])).toEqual({ written: 1, suppressed: [] });
  // A control room of its own (a fresh container) through the proxy.
  const control = controlDependencies(clientOnProxy().doc, tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
  const factoryId = newFactoryId('vendor-race');
  return {
    email,
    loader,
    writer,
    erase: (): Promise<ControlAnswer> => handleControlRequest(control, { operation: 'contacts.erase', factoryId, email }, BY),
    /** The vendor's record as stored now, read past the proxy. */
    record: async () => (await testDoc().send(new GetCommand({ TableName: tables.reference, Key: { email }, ConsistentRead: true }))).Item,
  };
}

test('a load whose write reaches the table after the erasure (its file read before) is refused for that person and says so; the record stays gone', async () => {
  const person = await vendorKnows();
  const held = person.loader.holdNextTransaction();
  const loading = person.writer.write([{ email: person.email, title: 'Countess of Lovelace' }]);
  await held.reached;

  const erased = await person.erase();
  held.release();
  const loaded = await loading;

  expect(erased.body).toMatchObject({ erased: true, vendorRecord: true });
  expect(loaded).toEqual({ written: 0, suppressed: [person.email] });
  expect(await person.record()).toBeUndefined();
});

test("a load landing between the erasure's suppression and its delete is refused, and the delete removes the record loaded before", async () => {
  // The load's transaction meets the erasure's delete in flight (a conflict, as DynamoDB raises it): its pause lets the erasure finish.
  let erasing: Promise<ControlAnswer> | undefined;
  const gate = proxy.gate((request) => request.operation === 'DeleteItem' && request.body.TableName === tables.reference);
  const person = await vendorKnows(async () => {
    gate.release();
    await erasing;
  });
  erasing = person.erase();
  await gate.reached;

  const loaded = await person.writer.write([{ email: person.email, title: 'Countess of Lovelace' }]);
  const erased = await erasing;

  expect(erased.body).toMatchObject({ erased: true, vendorRecord: true });
  expect(loaded).toEqual({ written: 0, suppressed: [person.email] });
  expect(await person.record()).toBeUndefined();
});

test('a load landing before the erasure suppresses the person is written, then deleted by the erasure', async () => {
  const person = await vendorKnows();
  // The erasure's first call on the vendor's side is its suppression secret (a fresh container): held there.
  const gate = proxy.gate(
    (request) =>
      request.operation === 'UpdateItem' && request.body.TableName === tables.keys && JSON.stringify(request.body.Key).includes('suppression-secret'),
  );
  const erasing = person.erase();
  await gate.reached;

  const loaded = await person.writer.write([{ email: person.email, title: 'Countess of Lovelace' }]);
  expect(await person.record()).toMatchObject({ title: 'Countess of Lovelace' });
  gate.release();
  const erased = await erasing;

  expect(loaded).toEqual({ written: 1, suppressed: [] });
  expect(erased.body).toMatchObject({ erased: true, vendorRecord: true });
  expect(await person.record()).toBeUndefined();
  // And the next load leaves them out.
  expect(await person.writer.write([{ email: person.email, title: 'Countess' }])).toEqual({ written: 0, suppressed: [person.email] });
});

test("an erasure meeting a load's transaction in flight answers 503 (nothing half-done that a retry does not finish), and erasing again removes what the load wrote", async () => {
  const person = await vendorKnows();
  // Held at the proxy, after it took its items: the transaction is in flight, as DynamoDB holds it while it commits.
  const gate = proxy.gate((request) => request.operation === 'TransactWriteItems');
  const loading = person.writer.write([{ email: person.email, title: 'Countess of Lovelace' }]);
  await gate.reached;

  const refused = await person.erase();
  gate.release();
  const loaded = await loading;
  const again = await person.erase();

  expect(refused.status).toBe(503);
  expect(loaded).toEqual({ written: 1, suppressed: [] });
  expect(again.body).toMatchObject({ erased: true, vendorRecord: true });
  expect(await person.record()).toBeUndefined();
});
