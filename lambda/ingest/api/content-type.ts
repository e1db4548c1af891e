import { clip } from '../../kernel/clip';
import type { Check } from '../../infrastructure/http/pipeline';
import { apiError } from '../../infrastructure/http/responses';

/**
 * Refuses a body sent as anything but one of `accepted` media types (415),
 * parameters aside; a charset, when given, must be UTF-8, which is what the
 * body is read as. Expects lowercased header names (http-header-normalizer).
 */
export function requireContentType(accepted: readonly string[]): Check {
  const list = accepted.join(' or ');
  return (event) => {
    const value = event.headers?.['content-type'];
    if (value === undefined || value.trim() === '') {
      throw apiError(415, `Missing Content-Type: send the JSON body as ${list}.`);
    }
    const [type = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
    if (!accepted.includes(type)) {
      throw apiError(415, `Content-Type ${JSON.stringify(clip(value, 100))} is not accepted: send the JSON body as ${list}.`);
    }
    const charset = parameters
      .find((parameter) => parameter.startsWith('charset='))
      ?.slice('charset='.length)
      .replace(/"/g, '');
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw apiError(415, `Content-Type charset ${JSON.stringify(clip(charset, 40))} is not accepted: send the body in UTF-8.`);
    }
  };
}
