import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError, type ErrorDetail } from '../../api/errors';
import { RoleNote, useCan } from '../../shell/roles';

/** A server path (`body.arguments.min_limit`, `query.table_fqn`) as the form's field name (`arguments.min_limit`). */
export function fieldName(path: string): string {
  const parts = path.split(/[./]/).filter(Boolean);
  const rest = ['body', 'query', 'params'].includes(parts[0] ?? '') ? parts.slice(1) : parts;
  if (rest[0] === 'arguments' && rest[1]) return `arguments.${rest[1]}`;
  return rest[0] ?? '';
}

/**
 * Field errors of one form: from ajv before sending or from the API's `details` after; the first field with an
 * error gets focus. `fromError` answers whether the error was about fields (else the caller shows an ErrorView).
 */
export function useFieldErrors() {
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  const focus = useRef<string | null>(null);
  useEffect(() => {
    const el = focus.current && document.getElementById(`field-${focus.current}`);
    if (el) {
      el.focus();
      focus.current = null;
    }
  });
  const show = (details: ErrorDetail[]) => {
    setErrors(details);
    focus.current = details[0]?.path ?? null;
  };
  return {
    errors,
    show,
    clear: () => setErrors([]),
    at: (name: string) => errors.find((e) => e.path === name)?.message,
    fromError(err: unknown): boolean {
      if (!(err instanceof ApiError) || !err.info.details.length) return false;
      show(err.info.details.map((d) => ({ path: fieldName(d.path), message: d.message })));
      return true;
    },
  };
}

export type FieldErrors = ReturnType<typeof useFieldErrors>;

/** The props a control needs to be labelled, flagged and described by its error. */
export function controlProps(name: string, errors: FieldErrors) {
  const message = errors.at(name);
  return {
    id: `field-${name}`,
    'aria-invalid': message ? (true as const) : undefined,
    'aria-describedby': message ? `field-${name}-error` : undefined,
  };
}

/** A label, its control (given the ids) and the control's error in words with a symbol. */
export function Field(props: {
  name: string;
  label: string;
  errors: FieldErrors;
  hint?: string;
  children: (p: ReturnType<typeof controlProps>) => ReactNode;
}) {
  const message = props.errors.at(props.name);
  const p = controlProps(props.name, props.errors);
  return (
    <div className="field">
      <label htmlFor={p.id}>{props.label}</label>
      {props.hint && <span className="hint">{props.hint}</span>}
      {props.children(p)}
      {message && (
        <span id={`field-${props.name}-error`} className="field-error">
          ⚠ {message}
        </span>
      )}
    </div>
  );
}

/** A text input `Field` maker over one form's errors: `text(name, label, value, onChange, hint?)`. */
export function textFields(errors: FieldErrors) {
  return (name: string, label: string, value: string, onChange: (v: string) => void, hint?: string) => (
    <Field name={name} label={label} errors={errors} hint={hint}>
      {(p) => <input {...p} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** Request body schema of an operation in the server's document (for ajv pre-validation). */
export function requestSchemaOf(
  doc: { paths?: Record<string, Record<string, unknown>> },
  path: string,
  method = 'post',
): object | undefined {
  const op = doc.paths?.[path]?.[method] as
    { requestBody?: { content?: Record<string, { schema?: object }> } } | undefined;
  return op?.requestBody?.content?.['application/json']?.schema;
}

/**
 * A button for an API operation ("post /api/rbac/policies"): disabled, with the reason beside it, when the key's
 * role is below the operation's least role (unknown role: enabled, the server decides).
 */
export function ActionButton(props: {
  operation: string;
  type?: 'button' | 'submit';
  disabled?: boolean;
  onClick?: () => void;
  children: ReactNode;
}) {
  const can = useCan(props.operation);
  const id = useId();
  return (
    <>
      <button
        type={props.type ?? 'button'}
        disabled={props.disabled || !can.allowed}
        aria-describedby={can.allowed ? undefined : id}
        onClick={props.onClick}
      >
        {props.children}
      </button>
      <RoleNote can={can} id={id} />
    </>
  );
}
