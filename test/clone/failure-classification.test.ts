import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { classifyActivities, isLogicalError } from '../../activities/clone/failures';
import {
  FAILURE_TYPES,
  NON_RETRYABLE_FAILURE_TYPES,
  isTransientFailure,
  toApplicationFailure,
} from '../../activities/clone/logic/failures';
import {
  AlreadyExistsError,
  ConflictError,
  DeadlineExceededError,
  InvalidInputError,
  InvalidWarehouseError,
  NotFoundError,
  PermissionDeniedError,
  StatementCanceledError,
  TransientError,
  type PlatformError,
} from '../../platform/errors';
import { classifyHttpError, classifySqlError } from '../../platform/databricks/classify';

const asFailure = (err: unknown) => toApplicationFailure(err) as ApplicationFailure;

test.each<[string, PlatformError, string, boolean]>([
  ['NotFoundError', new NotFoundError('catalog nope does not exist'), 'NotFound', true],
  ['AlreadyExistsError', new AlreadyExistsError('table a.b.c already exists'), 'AlreadyExists', true],
  ['PermissionDeniedError', new PermissionDeniedError('no CREATE CATALOG on metastore'), 'PermissionDenied', true],
  ['ConflictError', new ConflictError('concurrent commit to version 3'), 'Conflict', true],
  ['InvalidInputError', new InvalidInputError('[PARSE_SYNTAX_ERROR] near FROM'), 'InvalidInput', true],
  ['InvalidWarehouseError', new InvalidWarehouseError('warehouse abc does not exist'), 'InvalidWarehouse', true],
  ['DeadlineExceededError', new DeadlineExceededError('statement ran past 300 s'), 'DeadlineExceeded', true],
  ['StatementCanceledError', new StatementCanceledError('statement cancelled'), 'Canceled', true],
  ['TransientError', new TransientError('warehouse busy (HTTP 503)'), 'Transient', false],
])('%s becomes an ApplicationFailure of type %s (non-retryable: %s)', (_name, err, type, nonRetryable) => {
  const failure = asFailure(err);
  expect(failure).toBeInstanceOf(ApplicationFailure);
  expect(failure).toMatchObject({ type, nonRetryable, message: err.message });
  expect(NON_RETRYABLE_FAILURE_TYPES.includes(failure.type as never)).toBe(nonRetryable);
  expect(isLogicalError(err)).toBe(nonRetryable);
  expect(isTransientFailure(err)).toBe(!nonRetryable);
});

test('the non-retryable list is exactly the platform errors the adapters mark as not retryable', () => {
  const codes = Object.keys(FAILURE_TYPES) as (keyof typeof FAILURE_TYPES)[];
  const notRetryable = codes.filter((c) => c !== 'TRANSIENT').map((c) => FAILURE_TYPES[c]);
  expect([...NON_RETRYABLE_FAILURE_TYPES].sort()).toEqual(notRetryable.sort());
});

test.each<[string, PlatformError, string, boolean]>([
  ['HTTP 403', classifyHttpError(403, { error_code: 'PERMISSION_DENIED' }, 'grant', []), 'PermissionDenied', true],
  ['HTTP 404', classifyHttpError(404, {}, 'get catalog', []), 'NotFound', true],
  ['HTTP 429', classifyHttpError(429, {}, 'list tables', []), 'Transient', false],
  ['HTTP 503', classifyHttpError(503, {}, 'list tables', []), 'Transient', false],
  ['socket reset', classifySqlError(new Error('read ECONNRESET'), [], 'select'), 'Transient', false],
  [
    'throttled statement',
    classifySqlError(new Error('[TEMPORARILY_UNAVAILABLE] busy'), [], 'select'),
    'Transient',
    false,
  ],
])('a Databricks %s arrives as %s (non-retryable: %s)', (_what, err, type, nonRetryable) => {
  expect(asFailure(err)).toMatchObject({ type, nonRetryable });
});

test('a throttled call keeps the Retry-After the remote asked for as the next delay', () => {
  const failure = asFailure(classifyHttpError(429, {}, 'list tables', [], 7));
  expect(failure).toMatchObject({ type: 'Transient', nonRetryable: false, nextRetryDelay: '7s' });
});

test('a plain error stays retryable under its class name, with its stack and cause', () => {
  const root = new Error('connection terminated unexpectedly');
  const err = new TypeError('cannot read properties of undefined', { cause: root });
  const failure = asFailure(err);
  expect(failure).toMatchObject({ type: 'TypeError', nonRetryable: false, message: err.message, cause: root });
  expect(failure.stack).toBe(err.stack);
  expect(asFailure('a thrown string')).toMatchObject({
    type: 'Error',
    nonRetryable: false,
    message: 'a thrown string',
  });
});

test('the attempt that failed is the first detail', () => {
  expect(toApplicationFailure(new NotFoundError('gone'), { attempt: 3 })).toMatchObject({ details: [{ attempt: 3 }] });
});

test('Temporal failures and aborts pass through untouched', () => {
  const app = ApplicationFailure.create({ type: 'QUEUE_FULL', message: 'queue is full', nonRetryable: true });
  const cancelled = new CancelledFailure('cancelled');
  const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
  for (const err of [app, cancelled, abort]) expect(toApplicationFailure(err)).toBe(err);
});

test('classifyActivities keeps names and results and classifies what each activity throws', async () => {
  const acts = classifyActivities({
    async ok(n: number) {
      return n + 1;
    },
    async denied(): Promise<void> {
      throw new PermissionDeniedError('no USE CATALOG on prod');
    },
  });
  expect(Object.keys(acts)).toEqual(['ok', 'denied']);
  await expect(acts.ok(1)).resolves.toBe(2);
  const err = await acts.denied().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  expect(err).toMatchObject({ type: 'PermissionDenied', nonRetryable: true, details: [{ attempt: 1 }] });
});
