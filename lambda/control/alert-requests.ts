import * as z from 'zod/mini';
import { ALERT_TYPES } from '../alerts/alert';
import { URL_MAX } from '../alerts/destination-url';
import { SPIKE_FLOOR_RANGE, SPIKE_MULTIPLE_RANGE } from '../alerts/settings';
import { optionalWholeNumber } from './whole-number';

/**
 * The control room's alert operations (docs/alerts.md#destinations), as
 * request shapes: merged into the others in ./request.ts.
 *   alerts.list        {factoryId}                          destinations (never a secret) and settings
 *   alerts.add         {factoryId, url, types?, description?}  the secret once
 *   alerts.remove | alerts.rotate | alerts.enable  {factoryId, destinationId}
 *   alerts.disable     {factoryId, destinationId, reason}
 *   alerts.test        {factoryId, destinationId, type?}    one signed example, sent now
 *   alerts.deliveries  {factoryId, destinationId?, limit?, cursor?}  the log, newest first
 *   alerts.settings    {factoryId}                          the spike rule's settings
 *   alerts.configure   {factoryId, spikeMultiple?, spikeFloor?}
 */
export const DELIVERIES_DEFAULT = 50;
export const DELIVERIES_MAX = 200;
export const DESCRIPTION_MAX = 200;
export const DISABLE_REASON_MAX = 500;

const factoryId = z.string({ error: 'factoryId must be a string like "fac_acme"' }).check(
  z.regex(/^fac_[A-Za-z0-9_-]{1,64}$/, { error: 'factoryId must look like "fac_acme"' }),
);
const destinationId = z.string({ error: 'destinationId must be a string' }).check(
  z.regex(/^dst_[0-9a-f]{16}$/, { error: 'destinationId must be a destination id: dst_ + 16 hex characters (from `alerts list`)' }),
);
const alertType = z.enum(ALERT_TYPES, { error: `type must be one of ${ALERT_TYPES.join(', ')}` });
const boundedText = (name: string, max: number) =>
  z.string({ error: `${name} must be a string` }).check(z.minLength(1, { error: `${name} must not be empty` }), z.maxLength(max, { error: `${name} must be at most ${max} characters` }));

export const ALERT_OPERATIONS = {
  'alerts.list': z.strictObject({ operation: z.literal('alerts.list'), factoryId }),
  'alerts.add': z.strictObject({
    operation: z.literal('alerts.add'),
    factoryId,
    url: boundedText('url', URL_MAX),
    types: z.optional(z.array(alertType, { error: `types must be a list of alert types: ${ALERT_TYPES.join(', ')}` })),
    description: z.optional(boundedText('description', DESCRIPTION_MAX)),
  }),
  'alerts.remove': z.strictObject({ operation: z.literal('alerts.remove'), factoryId, destinationId }),
  'alerts.rotate': z.strictObject({ operation: z.literal('alerts.rotate'), factoryId, destinationId }),
  'alerts.disable': z.strictObject({ operation: z.literal('alerts.disable'), factoryId, destinationId, reason: boundedText('reason', DISABLE_REASON_MAX) }),
  'alerts.enable': z.strictObject({ operation: z.literal('alerts.enable'), factoryId, destinationId }),
  'alerts.test': z.strictObject({ operation: z.literal('alerts.test'), factoryId, destinationId, type: z.optional(alertType) }),
  'alerts.deliveries': z.strictObject({
    operation: z.literal('alerts.deliveries'),
    factoryId,
    destinationId: z.optional(destinationId),
    limit: optionalWholeNumber('limit', DELIVERIES_MAX),
    cursor: z.optional(z.string({ error: 'cursor must be the string a previous answer returned' })),
  }),
  'alerts.settings': z.strictObject({ operation: z.literal('alerts.settings'), factoryId }),
  'alerts.configure': z.strictObject({
    operation: z.literal('alerts.configure'),
    factoryId,
    spikeMultiple: optionalWholeNumber('spikeMultiple', SPIKE_MULTIPLE_RANGE.max).check(
      z.refine((value) => value === undefined || value >= SPIKE_MULTIPLE_RANGE.min, { error: `spikeMultiple must be a whole number from ${SPIKE_MULTIPLE_RANGE.min} to ${SPIKE_MULTIPLE_RANGE.max}` }),
    ),
    spikeFloor: optionalWholeNumber('spikeFloor', SPIKE_FLOOR_RANGE.max),
  }),
} as const;

type AlertName = keyof typeof ALERT_OPERATIONS;
/** An alert request as parsed (defaults applied where it runs: ./alert-operations.ts). */
export type AlertRequest = { [K in AlertName]: z.output<(typeof ALERT_OPERATIONS)[K]> }[AlertName];
export const isAlertRequest = <T extends { operation: string }>(request: T | AlertRequest): request is AlertRequest => request.operation in ALERT_OPERATIONS;
