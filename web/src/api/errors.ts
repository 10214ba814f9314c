/**
 * The API's error body, `{error: {code, message, details[{path, message}]}, request_id}`, as the console shows it:
 * details at their fields, the rest with code, message and a copyable request id.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ConsoleError {
  status: number | null; // null: the request never got an answer
  code: string;
  message: string;
  details: ErrorDetail[];
  request_id: string | null;
  retryable: boolean;
  /** A 403's least role, from its `headers.authorization` detail ("requires role editor (or higher)"). */
  required_role?: string;
}

export class ApiError extends Error {
  constructor(readonly info: ConsoleError) {
    super(info.message);
  }
}

/** A field name the form knows from a server path: `body.throttle.parallel_tables` → `throttle`. */
export function fieldOfPath(path: string): string {
  const parts = path.split(/[./]/).filter(Boolean);
  const rest = parts[0] === 'body' || parts[0] === 'query' || parts[0] === 'params' ? parts.slice(1) : parts;
  return rest[0] ?? '';
}

export function toConsoleError(status: number | null, body: unknown, requestIdHeader?: string | null): ConsoleError {
  if (status === null) {
    return {
      status,
      code: 'NETWORK',
      message: 'The API did not answer (network error or the server is down).',
      details: [],
      request_id: null,
      retryable: true,
    };
  }
  const b = (body ?? {}) as { error?: Partial<ConsoleError> & { details?: ErrorDetail[] }; request_id?: string };
  const err = b.error ?? {};
  const all = Array.isArray(err.details) ? err.details.filter((d) => typeof d?.path === 'string') : [];
  // Details about the request's headers (the key, its role) belong to no form field: the message says them.
  const headers = all.filter((d) => d.path.startsWith('headers.'));
  const role = /requires role (\w+)/.exec(headers.map((d) => d.message).join(' '))?.[1];
  return {
    status,
    code: typeof err.code === 'string' ? err.code : `HTTP_${status}`,
    message: typeof err.message === 'string' ? err.message : `The API answered ${status}.`,
    details: all.filter((d) => !d.path.startsWith('headers.')),
    request_id: b.request_id ?? requestIdHeader ?? null,
    retryable: status >= 500,
    ...(role ? { required_role: role } : {}),
  };
}

/** What the console says about an error besides its message: the role for a 403, the queue for a 429. */
export function errorHint(e: ConsoleError, requiredRole?: string): string | null {
  if (e.status === 403 && e.code !== 'POLICY_DENIED') {
    const role = requiredRole ?? e.required_role;
    return role
      ? `This action needs the ${role} role (or higher); your key's role is below it.`
      : "This action needs a higher role than your key's.";
  }
  if (e.status === 403) return 'An access policy refuses this (the message names the rule).';
  if (e.status === 429) return 'The queue is full: wait for running jobs to finish or raise the queue size.';
  if (e.retryable) return 'This may pass on a retry.';
  return null;
}

/** Unwraps an openapi-fetch answer: the data, or an ApiError carrying the console's view of the failure. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(toConsoleError(null, null));
  }
  if (result.response.ok) return result.data as T;
  throw new ApiError(toConsoleError(result.response.status, result.error, result.response.headers.get('X-Request-Id')));
}
