import type { ReactNode } from 'react';
import { ApiError, type ErrorDetail } from '../../api/errors';
import { ErrorView } from '../../shell/ErrorView';

/** The server's field errors of a failed call (`body.x` → `x`), for the fields of a form. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const d of error.info.details as ErrorDetail[]) {
    const field = d.path.replace(/^(body|query|params)\./, '');
    out[field] ??= d.message;
  }
  return out;
}

/** A failed call: at its fields when the server named them, else the error box (code, message, request id). */
export function CallError({ error, fields, onRetry }: { error: unknown; fields: string[]; onRetry?: () => void }) {
  if (!error) return null;
  const errs = fieldErrors(error);
  if (fields.some((f) => errs[f])) return null;
  return <ErrorView error={error} onRetry={onRetry} />;
}

/** A labelled text input whose server error sits under it (aria-describedby, aria-invalid). */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  required?: boolean;
  hint?: string;
  type?: string;
}) {
  const errId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.error ? errId : '', props.hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>
        {props.label}
        {props.required ? ' (required)' : ''}
      </label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        aria-required={props.required || undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && (
        <span id={hintId} className="marker">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={errId} className="field-error">
          ⚠ {props.error}
        </span>
      )}
    </div>
  );
}

const SYMBOLS: Record<string, string> = {
  ok: '✓',
  in_sync: '✓',
  completed: '✓',
  succeeded: '✓',
  applied: '✓',
  resolved: '✓',
  on_track: '✓',
  running: '▶',
  active: '▶',
  queued: '⏳',
  applying: '⏳',
  warning: '⚠',
  at_risk: '⚠',
  partial: '◐',
  paused: '⏸',
  snoozed: '⏸',
  dismissed: '⊘',
  skipped: '⊘',
  not_matched: '⊘',
  rate_limited: '⏸',
  over: '✕',
  overdue: '✕',
  failed: '✕',
  cancelled: '⏹',
  open: '●',
};

/** A status in words with a symbol (never colour alone); `data-status` for tests. */
export function StatusWord({ status, children }: { status: string; children?: ReactNode }) {
  return (
    <span data-status={status}>
      <span aria-hidden="true">{SYMBOLS[status] ?? '•'}</span> {children ?? status.replace(/_/g, ' ')}
    </span>
  );
}
