import { HttpError } from '../middleware/http-error';

/** A clone request that passed the schema but cannot be turned into a job (unknown template, target, …). */
export class JobInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'JobInputError';
  }
}

const refusal = (status: number, code: string, field: string, message: string) =>
  new HttpError(status, code, `${field}: ${message}`, [{ path: `body.${field}`, message }]);

/** The request names something the source workspace does not have: 404 naming the field, nothing queued. */
export const fieldNotFound = (field: string, message: string) => refusal(404, 'NOT_FOUND', field, message);

/** A valid name the workspace that would hold it cannot take: 422 naming the field, nothing queued. */
export const fieldUnsupported = (field: string, message: string) => refusal(422, 'VALIDATION_ERROR', field, message);
