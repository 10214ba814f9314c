import OperationStateError, { OperationStateErrorCode } from '@databricks/sql/dist/errors/OperationStateError';
import AuthenticationError from '@databricks/sql/dist/errors/AuthenticationError';
import RetryError, { RetryErrorCode } from '@databricks/sql/dist/errors/RetryError';
import { THTTPException } from '@databricks/sql/dist/connection/connections/ThriftHttpConnection';
import { classifySqlError } from '../../platform/databricks';
import type { PlatformErrorCode } from '../../platform/errors';

/** A statement failure as the driver reports it: OperationStateError carrying the server's message. */
const serverError = (displayMessage: string) =>
  new OperationStateError(OperationStateErrorCode.Error, { displayMessage } as never);
const httpError = (status: number) => new THTTPException({ status } as never);

const cases: [string, unknown, PlatformErrorCode][] = [
  [
    'missing table',
    serverError('[TABLE_OR_VIEW_NOT_FOUND] The table or view `main`.`x`.`y` cannot be found. SQLSTATE: 42P01'),
    'NOT_FOUND',
  ],
  ['missing schema', serverError('[SCHEMA_NOT_FOUND] The schema `main`.`nope` cannot be found.'), 'NOT_FOUND'],
  [
    'missing constraint',
    serverError('[DELTA_CONSTRAINT_DOES_NOT_EXIST] Cannot drop nonexistent constraint c1'),
    'NOT_FOUND',
  ],
  [
    'syntax error',
    serverError("[PARSE_SYNTAX_ERROR] Syntax error at or near 'FROMM'. SQLSTATE: 42601"),
    'INVALID_INPUT',
  ],
  [
    'unknown column',
    serverError('[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column cannot be resolved. SQLSTATE: 42703'),
    'INVALID_INPUT',
  ],
  [
    'vacuum retention too short',
    serverError(
      '[DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT] Are you sure you would like to vacuum files with such a low retention period?',
    ),
    'INVALID_INPUT',
  ],
  [
    'no privilege',
    serverError('[INSUFFICIENT_PERMISSIONS] Insufficient privileges: User does not have USE SCHEMA on Schema main.x'),
    'PERMISSION_DENIED',
  ],
  ['permission denied', serverError('PERMISSION_DENIED: User is not an owner of Table main.a.b'), 'PERMISSION_DENIED'],
  [
    'exists',
    serverError('[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view `main`.`a`.`b` because it already exists.'),
    'ALREADY_EXISTS',
  ],
  [
    'concurrent append',
    serverError(
      '[DELTA_CONCURRENT_APPEND] ConcurrentAppendException: Files were added to the root of the table by a concurrent update.',
    ),
    'CONFLICT',
  ],
  ['server busy', serverError('[TEMPORARILY_UNAVAILABLE] The service is temporarily unavailable'), 'TRANSIENT'],
  ['statement timeout', new OperationStateError(OperationStateErrorCode.Timeout), 'TRANSIENT'],
  ['driver gave up retrying', new RetryError(RetryErrorCode.AttemptsExceeded), 'TRANSIENT'],
  ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'TRANSIENT'],
  ['HTTP 429', httpError(429), 'TRANSIENT'],
  ['HTTP 503', httpError(503), 'TRANSIENT'],
  ['HTTP 403', httpError(403), 'PERMISSION_DENIED'],
  ['HTTP 401', httpError(401), 'PERMISSION_DENIED'],
  ['HTTP 404 on the warehouse path', httpError(404), 'INVALID_WAREHOUSE'],
  ['warehouse deleted', serverError('Warehouse 1234abcd does not exist or was deleted'), 'INVALID_WAREHOUSE'],
  ['bad token', new AuthenticationError('Failed to authenticate'), 'PERMISSION_DENIED'],
];

describe('driver failures become typed platform errors', () => {
  it.each(cases)('%s', (_name, err, code) => {
    const classified = classifySqlError(err, [], 'SQL statement');
    expect(classified.code).toBe(code);
    expect(classified.retryable).toBe(code === 'TRANSIENT');
  });

  it('redacts the token and token-shaped strings from driver messages', () => {
    const err = serverError(
      'auth failed for Bearer abcdefghijklmnop with dapi0123456789abcdef0123456789abcdef and s3cr3tvalue',
    );
    const { message } = classifySqlError(err, ['s3cr3tvalue'], 'SQL statement');
    expect(message).not.toMatch(/abcdefghijklmnop|dapi0123|s3cr3tvalue/);
    expect(message).toContain('[redacted]');
  });
});
