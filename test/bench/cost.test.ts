import { assumedLambdaMs, costPerMillion, itemSize, strongReadUnits, US_EAST_1_PRICES, valueSize, writeUnits } from '../../tools/bench/cost';

describe('DynamoDB item size', () => {
  it('adds attribute names and values by DynamoDB rules', () => {
    // "id"(2) + "abc"(3) + "n"(1) + 12345 (3 digits pairs rounded up: 3, +1) + "ok"(2) + true(1)
    expect(itemSize({ id: { S: 'abc' }, n: { N: '12345' }, ok: { BOOL: true } })).toBe(2 + 3 + 1 + 4 + 2 + 1);
  });

  it('counts strings in UTF-8 bytes', () => {
    expect(valueSize({ S: 'münchen' })).toBe(8);
  });

  it('counts maps and lists with their overhead', () => {
    // map: 3 + ("a" 1 + "x" 1 + 1) ; list: 3 + (1 + 1) + (1 + 1)
    expect(valueSize({ M: { a: { S: 'x' } } })).toBe(6);
    expect(valueSize({ L: [{ S: 'x' }, { NULL: true }] })).toBe(7);
  });
});

describe('capacity units', () => {
  it('bills writes per started KB, at least one (a refused condition too)', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
  });

  it('bills strongly consistent reads per started 4 KB, at least one (a miss too)', () => {
    expect(strongReadUnits(0)).toBe(1);
    expect(strongReadUnits(4096)).toBe(1);
    expect(strongReadUnits(4097)).toBe(2);
  });
});

describe('cost per million requests', () => {
  const prices = { ...US_EAST_1_PRICES };

  it('adds API Gateway, Lambda requests and GB-seconds, DynamoDB units and log ingestion', () => {
    const cost = costPerMillion({ readUnits: 1, writeUnits: 1, lambdaMs: 10, lambdaMemoryMb: 1024, logBytes: 1024 }, prices);
    expect(cost.apiGateway).toBeCloseTo(3.5);
    // 0.20 + 1 GB × 0.010 s × 1e6 × 0.0000133334
    expect(cost.lambda).toBeCloseTo(0.2 + 0.133334, 5);
    expect(cost.dynamo).toBeCloseTo(0.625 + 0.125);
    // 1e6 KB ≈ 0.954 GB × $0.50
    expect(cost.logs).toBeCloseTo((1024 * 1e6 * 0.5) / 1024 ** 3, 6);
    expect(cost.total).toBeCloseTo(cost.apiGateway + cost.lambda + cost.dynamo + cost.logs);
  });

  it('bills Lambda per started millisecond, in proportion to memory', () => {
    const at = (lambdaMs: number, lambdaMemoryMb: number) =>
      costPerMillion({ readUnits: 0, writeUnits: 0, lambdaMs, lambdaMemoryMb, logBytes: 0 }, prices).lambda - 0.2;
    expect(at(9.2, 1024)).toBeCloseTo(at(10, 1024));
    expect(at(10, 512)).toBeCloseTo(at(10, 1024) / 2);
  });

  it('assumes a round trip per round plus CPU scaled to the memory’s CPU share', () => {
    expect(assumedLambdaMs(2, 0, { roundTripMs: 5, memoryMb: 1024 })).toBe(10);
    // 1 ms of CPU at 1769 MB (a full vCPU) stays 1 ms; at 884.5 MB it takes 2.
    expect(assumedLambdaMs(0, 1, { roundTripMs: 5, memoryMb: 1769 })).toBe(1);
    expect(assumedLambdaMs(0, 1, { roundTripMs: 5, memoryMb: 884.5 })).toBe(2);
  });
});
