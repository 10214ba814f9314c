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
