import { describe, expect, it } from 'vitest';
import { errorHint, fieldOfPath, toConsoleError } from './errors';

describe('API errors', () => {
  it('keeps code, message, details and request id of the error body', () => {
    const e = toConsoleError(400, {
      error: {
        code: 'VALIDATION_ERROR',
        message: 'bad',
        details: [{ path: 'body.destination_catalog', message: 'must differ' }],
      },
      request_id: 'r-1',
    });
    expect(e).toMatchObject({ code: 'VALIDATION_ERROR', message: 'bad', request_id: 'r-1', retryable: false });
    expect(fieldOfPath(e.details[0].path)).toBe('destination_catalog');
    expect(fieldOfPath('throttle.parallel_tables')).toBe('throttle');
  });

  it('offers a retry for network failures and 5xx only, and names the role for a 403 and the queue for a 429', () => {
    expect(toConsoleError(null, null).retryable).toBe(true);
    expect(toConsoleError(503, {}).retryable).toBe(true);
    expect(errorHint(toConsoleError(403, {}), 'admin')).toMatch(/admin role/);
    const forbidden = {
      error: {
        code: 'FORBIDDEN',
        message: 'x',
        details: [{ path: 'headers.authorization', message: 'requires role editor (or higher)' }],
      },
    };
    expect(errorHint(toConsoleError(403, forbidden))).toMatch(/needs the editor role/);
    // The key's detail is no form field's: a form shows the error whole, not at a field.
    expect(toConsoleError(403, forbidden).details).toEqual([]);
    expect(errorHint(toConsoleError(429, {}))).toMatch(/queue is full/);
  });
});
