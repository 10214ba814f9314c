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
    expect(errorHint(toConsoleError(429, {}))).toMatch(/queue is full/);
  });
});
