import { useState } from 'react';
import { ApiError, errorHint, toConsoleError, type ConsoleError, type ErrorDetail } from '../api/errors';

export function asConsoleError(err: unknown): ConsoleError {
  if (err instanceof ApiError) return err.info;
  return { ...toConsoleError(null, null), message: (err as Error)?.message ?? String(err), code: 'CLIENT' };
}

/** An error that is not about one field: code, message, what to do, a copyable request id, retry when it may pass. */
export function ErrorView({
  error,
  onRetry,
  requiredRole,
}: {
  error: unknown;
  onRetry?: () => void;
  requiredRole?: string;
}) {
  const e = asConsoleError(error);
  const [copied, setCopied] = useState(false);
  const hint = errorHint(e, requiredRole);
  return (
    <div role="alert" className="error-box">
      <p>
        <strong>
          Error {e.status ?? ''} {e.code}:
        </strong>{' '}
        {e.message}
      </p>
      {hint && <p>{hint}</p>}
      {e.request_id && (
        <p>
          Request id <code data-testid="request-id">{e.request_id}</code>{' '}
          <button
            type="button"
            onClick={() => {
              void navigator.clipboard?.writeText(e.request_id ?? '').then(() => setCopied(true));
            }}
          >
            {copied ? 'Copied' : 'Copy request id'}
          </button>
        </p>
      )}
      {e.retryable && onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** The summary above a form: each field error links to its field; the first field gets focus (done by the form). */
export function FieldErrorSummary({ details, labelOf }: { details: ErrorDetail[]; labelOf: (f: string) => string }) {
  if (!details.length) return null;
  return (
    <div role="alert" className="error-box" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There {details.length === 1 ? 'is a problem' : `are ${details.length} problems`}</h2>
      <ul>
        {details.map((d, i) => (
          <li key={`${d.path}-${i}`}>
            <a href={`#field-${d.path}`}>
              {labelOf(d.path)}: {d.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
