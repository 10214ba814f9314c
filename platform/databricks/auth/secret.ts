import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A credential value that refuses to be printed: logging, JSON serialisation (job records) and string
 * interpolation all show `[redacted]`. Only `reveal()` gives the value, at the point of use.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}

/** Token shapes that must never leave the process even when we did not issue them ourselves. */
const TOKEN_PATTERNS: RegExp[] = [
  /\bdapi[0-9a-f]{32}(-\d+)?\b/gi, // Databricks personal access token
  /\bdose[0-9a-f]{20,}\b/gi, // Databricks OAuth client secret
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}\b/g, // JWT access tokens (OAuth, Azure AD)
  /(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
];

/** Removes known secrets and anything that looks like a token from a message. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  for (const p of TOKEN_PATTERNS)
    out = out.replace(p, (m) => (/^(Bearer|Basic)/i.test(m) ? `${m.split(/\s+/)[0]} ${REDACTED}` : REDACTED));
  return out;
}
