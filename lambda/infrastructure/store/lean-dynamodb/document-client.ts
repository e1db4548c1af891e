import { marshall, unmarshall, type marshallOptions as MarshallOptions } from '@aws-sdk/util-dynamodb';
import type { DynamoDBClient, ResponseMetadata, WireCommand } from './dynamodb-client';

/**
 * The document client the Lambda assets carry in place of `@aws-sdk/lib-dynamodb`
 * (an esbuild alias beside ./dynamodb-client.ts's): the same command names and
 * inputs as the stores write them, the attribute values of each command's
 * inputs marshalled and of its outputs unmarshalled where lib-dynamodb does it
 * (its key nodes, for the commands the service sends), errors passed through
 * raw as lib-dynamodb passes them (a refused condition's `Item` stays
 * marshalled). A command the stores start using that is not here fails the
 * bundle's build (esbuild: no matching export), never a request.
 */

type Item = Record<string, unknown>;
type Output = Record<string, unknown> & { $metadata: ResponseMetadata };

const marshalled = (values: unknown, options: MarshallOptions): unknown => (values === undefined ? undefined : marshall(values as Item, options));
const unmarshalled = (values: unknown): unknown => (values === undefined ? undefined : unmarshall(values as Parameters<typeof unmarshall>[0]));

/** The input with the named fields' values marshalled (undefined fields left out). */
function withMarshalled(input: Item, fields: readonly string[], options: MarshallOptions): Item {
  const out: Item = { ...input };
  for (const field of fields) {
    if (input[field] === undefined) delete out[field];
    else out[field] = marshalled(input[field], options);
  }
  return out;
}

/** The output with the named fields unmarshalled. */
function withUnmarshalled(output: Output, fields: readonly string[]): Output {
  for (const field of fields) if (output[field] !== undefined) output[field] = unmarshalled(output[field]);
  return output;
}

/** One command of the document client: its operation, its input as the stores give it, and the translation both ways. */
abstract class DocumentCommand<Input extends Item> {
  abstract readonly operation: string;
  constructor(readonly input: Input) {}
  abstract toWire(options: MarshallOptions): Item;
  abstract fromWire(output: Output): Output;
}

/** A command whose input and output each have plain attribute maps at the top. */
abstract class ItemCommand<Input extends Item> extends DocumentCommand<Input> {
  protected abstract readonly inputFields: readonly string[];
  protected abstract readonly outputFields: readonly string[];
  toWire(options: MarshallOptions): Item {
    return withMarshalled(this.input, this.inputFields, options);
  }
  fromWire(output: Output): Output {
    return withUnmarshalled(output, this.outputFields);
  }
}

export class GetCommand extends ItemCommand<Item> {
  readonly operation = 'GetItem';
  protected readonly inputFields = ['Key'];
  protected readonly outputFields = ['Item'];
}

export class PutCommand extends ItemCommand<Item> {
  readonly operation = 'PutItem';
  protected readonly inputFields = ['Item', 'ExpressionAttributeValues'];
  protected readonly outputFields = ['Attributes'];
}

export class UpdateCommand extends ItemCommand<Item> {
  readonly operation = 'UpdateItem';
  protected readonly inputFields = ['Key', 'ExpressionAttributeValues'];
  protected readonly outputFields = ['Attributes'];
}

export class DeleteCommand extends ItemCommand<Item> {
  readonly operation = 'DeleteItem';
  protected readonly inputFields = ['Key', 'ExpressionAttributeValues'];
  protected readonly outputFields = ['Attributes'];
}

export class QueryCommand extends ItemCommand<Item> {
  readonly operation = 'Query';
  protected readonly inputFields = ['ExclusiveStartKey', 'ExpressionAttributeValues'];
  protected readonly outputFields = ['LastEvaluatedKey'];
  fromWire(output: Output): Output {
    super.fromWire(output);
    if (Array.isArray(output.Items)) output.Items = output.Items.map(unmarshalled);
    return output;
  }
}

/** `RequestItems: {table: {Keys: [key…], …}}` in; `Responses: {table: [item…]}` and `UnprocessedKeys` (as sent) out. */
export class BatchGetCommand extends DocumentCommand<Item> {
  readonly operation = 'BatchGetItem';
  toWire(options: MarshallOptions): Item {
    return { ...this.input, RequestItems: batchKeys(this.input.RequestItems, (key) => marshalled(key, options)) };
  }
  fromWire(output: Output): Output {
    if (output.Responses) {
      output.Responses = Object.fromEntries(
        Object.entries(output.Responses as Record<string, unknown[]>).map(([table, items]) => [table, items.map(unmarshalled)]),
      );
    }
    if (output.UnprocessedKeys) output.UnprocessedKeys = batchKeys(output.UnprocessedKeys, unmarshalled);
    return output;
  }
}

function batchKeys(tables: unknown, convert: (key: unknown) => unknown): Item {
  return Object.fromEntries(
    Object.entries((tables ?? {}) as Record<string, Item>).map(([table, request]) => [
      table,
      { ...request, ...(Array.isArray(request.Keys) ? { Keys: request.Keys.map(convert) } : {}) },
    ]),
  );
}

/** Each of `TransactItems` a ConditionCheck, Put, Delete or Update, its Key, Item and ExpressionAttributeValues marshalled. */
export class TransactWriteCommand extends DocumentCommand<Item> {
  readonly operation = 'TransactWriteItems';
  toWire(options: MarshallOptions): Item {
    const items = (this.input.TransactItems ?? []) as Record<string, Item | undefined>[];
    return {
      ...this.input,
      TransactItems: items.map((action) =>
        Object.fromEntries(
          Object.entries(action).map(([kind, body]) => [
            kind,
            body === undefined ? body : withMarshalled(body, ['Key', 'Item', 'ExpressionAttributeValues'], options),
          ]),
        ),
      ),
    };
  }
  fromWire(output: Output): Output {
    return output;
  }
}

/** What lib-dynamodb's `from` takes: its marshalling options (the unmarshalling ones are the defaults here). */
interface TranslateConfig {
  marshallOptions?: MarshallOptions;
}

export class DynamoDBDocumentClient {
  private constructor(
    private readonly client: DynamoDBClient,
    private readonly options: MarshallOptions,
  ) {}

  static from(client: DynamoDBClient, translateConfig: TranslateConfig = {}): DynamoDBDocumentClient {
    return new DynamoDBDocumentClient(client, translateConfig.marshallOptions ?? {});
  }

  async send(command: DocumentCommand<Item>): Promise<Output> {
    const wire: WireCommand = { operation: command.operation, input: command.toWire(this.options) };
    return command.fromWire(await this.client.send(wire));
  }

  destroy(): void {
    this.client.destroy();
  }
}
