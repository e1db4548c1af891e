import { Match, type Template } from 'aws-cdk-lib/assertions';
import { resourcesOf, synthStack } from './synth';

/**
 * The tally's event source mapping (lib/tally.ts, docs/report-issues.md#exact-counts): the reports table's stream,
 * inserted events only, one batch per shard at a time, named by its shard, and a batch that keeps failing split down
 * to its failing record, tried a few times and given up into the failure queue within minutes, never held for the
 * stream's 24 hours.
 */
let template: Template;
beforeAll(() => {
  ({ template } = synthStack({}, 'TestTally'));
}, 60_000);

type Resource = { Properties: Record<string, any> };

function tallyMapping(): Resource {
  const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')) as Resource[];
  const tallies = mappings.filter((m) => /"Ref":"TallyDeploymentLive[0-9A-F]+"/.test(JSON.stringify(m.Properties.FunctionName)));
  expect(tallies).toHaveLength(1);
  return tallies[0] as Resource;
}

test('the tally reads the reports stream one batch per shard at a time, only inserted events and limiter items carrying sessions, named by shard (tumbling window), from its live alias', () => {
  template.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  expect(tallyMapping().Properties).toMatchObject({
    // The live alias, never $LATEST: a release reaches the stream through its canary (lib/gradual-deployment.ts).
    FunctionName: { 'Fn::Join': ['', expect.arrayContaining([':live'])] },
    StartingPosition: 'TRIM_HORIZON',
    ParallelizationFactor: 1,
    TumblingWindowInSeconds: expect.any(Number),
    MaximumBatchingWindowInSeconds: 1,
    FilterCriteria: {
      Filters: [
        { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'event#' }] } } } }) },
        // Sessions (docs/release-health.md#how-it-is-counted): a limiter item written with the sessions of a request.
        {
          Pattern: JSON.stringify({
            eventName: ['INSERT', 'MODIFY'],
            dynamodb: { Keys: { pk: { S: [{ prefix: 'limit#' }] } }, NewImage: { sfac: { S: [{ exists: true }] } } },
          }),
        },
      ],
    },
  });
});

test('a failing batch is bisected, its failing record tried five times and no record older than an hour, then given up into the failure queue', () => {
  const { Properties } = tallyMapping();
  expect(Properties).toMatchObject({
    BisectBatchOnFunctionError: true,
    MaximumRetryAttempts: 5,
    MaximumRecordAgeInSeconds: 3600,
    DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^TallyFailures/), 'Arn'] } } },
  });
  // Whole batches: the tally answers no failed items (its marks count a batch tried again once, however it is cut).
  expect(Properties.FunctionResponseTypes).toBeUndefined();
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    AlarmName: Match.stringLikeRegexp('tally-batches-dropped$'),
    Threshold: 1,
  });
});
