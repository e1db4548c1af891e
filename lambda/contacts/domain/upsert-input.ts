import * as z from 'zod/mini';
import { clip } from '../../kernel/clip';
import { SOURCES, type Source } from './source';
import { normalizeEmail } from '../../kernel/email';
import { cleanText } from '../../kernel/free-text';
import { TEXT_LIMITS } from '../../kernel/limits';
import { normalizeDomain } from './normalize-domain';

/** Shows a caller's value in an error message without echoing a huge payload. */
const quote = (value: string): string => JSON.stringify(clip(value, 60));

/** An optional string field: absent and `null` give undefined. */
const optionalString = (field: string) => z.optional(z.nullable(z.string({ error: `${field} must be a string` })));

/**
 * Optional free text, cleaned by the one free-text rule (free-text.ts: lone
 * surrogates refused, controls stripped, line breaks made spaces, trimmed,
 * clipped, never rejected for length, docs/contacts-api.md#limits). `null` and text that is blank
 * once cleaned count as omitted: the API has no way to clear a field (docs/control-room.md#clearing-a-field,
 * merge rule 2).
 */
const freeText = (field: keyof typeof TEXT_LIMITS) =>
  z.pipe(
    optionalString(field),
    z.transform((value, ctx) => {
      if (value === undefined || value === null) return undefined;
      const check = cleanText(value, { field, lines: 'single-line', max: TEXT_LIMITS[field] });
      if (check.ok) return check.text === '' ? undefined : check.text;
      ctx.issues.push({ code: 'custom', message: check.problem, input: value });
      return z.NEVER;
    }),
  );

const email = z.pipe(
  z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? 'email is required' : 'email must be a string'),
  }),
  z.transform((raw, ctx) => {
    const check = normalizeEmail(raw);
    if (check.ok) return check.email;
    ctx.issues.push({ code: 'custom', message: check.problem, input: raw });
    return z.NEVER;
  }),
);

/** A company domain; `null`, `""` and blank count as omitted, like free text. */
const companyDomain = z.pipe(
  optionalString('companyDomain'),
  z.transform((raw, ctx) => {
    if (raw === undefined || raw === null || raw.trim() === '') return undefined;
    const domain = normalizeDomain(raw);
    if (domain !== undefined) return domain;
    ctx.issues.push({
      code: 'custom',
      message: `companyDomain must be a domain like example.com or https://www.example.com/ (got ${quote(raw)})`,
      input: raw,
    });
    return z.NEVER;
  }),
);

/** Absent or `null` is omitted; any string but the four values, `""` and padded ones included, is refused (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). */
const source = z.pipe(
  optionalString('source'),
  z.transform((raw, ctx): Source | undefined => {
    if (raw === undefined || raw === null) return undefined;
    if ((SOURCES as readonly string[]).includes(raw)) return raw as Source;
    ctx.issues.push({
      code: 'custom',
      message: `source must be one of ${SOURCES.join(', ')} (got ${quote(raw)})`,
      input: raw,
    });
    return z.NEVER;
  }),
);

/**
 * The upsert body (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). Unknown fields are dropped, so newer clients
 * work against this server (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts).
 */
export const upsertBody = z.object(
  {
    email,
    name: freeText('name'),
    company: freeText('company'),
    companyDomain,
    title: freeText('title'),
    phone: freeText('phone'),
    page: freeText('page'),
    source,
  },
  { error: 'Request body must be a JSON object, like {"email": "ada@example.com"}' },
);

/** A validated, normalized upsert body. Undefined fields were omitted, null or blank (never `source`). */
export type UpsertInput = z.output<typeof upsertBody>;
