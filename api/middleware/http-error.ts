import type { ErrorDetail } from '../../schemas/common';

/**
 * An error a route throws on purpose, with its HTTP status and a stable code: 429 QUEUE_FULL,
 * 422 UNSUPPORTED, 400 with details naming fields, … The error middleware renders it as the common body.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details: ErrorDetail[] = []) =>
  new HttpError(400, 'VALIDATION_ERROR', message, details);
export const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new HttpError(409, 'CONFLICT', message);
