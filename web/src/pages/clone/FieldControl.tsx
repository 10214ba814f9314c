import type { CloneField } from './fields';

/**
 * One clone request field as a labelled control (id `field-<name>`), its error tied with aria-describedby, and a
 * marker saying whether the template set it or the user did.
 */
export function FieldControl(props: {
  field: CloneField;
  value: string | boolean;
  error?: string;
  origin: 'template' | 'edited' | null;
  onChange: (value: string | boolean) => void;
}) {
  const { field, value, error, origin, onChange } = props;
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [error ? errorId : null, origin || field.kind === 'json' || field.kind === 'list' ? hintId : null]
      .filter(Boolean)
      .join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };
  const hint = [
    origin === 'template' ? 'set by the template' : origin === 'edited' ? 'your edit (wins over the template)' : null,
    field.kind === 'json' ? 'JSON' : field.kind === 'list' ? 'comma-separated' : null,
  ]
    .filter(Boolean)
    .join('; ');
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required ? ' (required)' : ''}
    </label>
  );
  let control: React.ReactElement;
  if (field.kind === 'boolean') {
    control = (
      <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
    );
  } else if (field.kind === 'enum') {
    control = (
      <select {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        <option value="">(default)</option>
        {field.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'json') {
    control = <textarea {...common} rows={2} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  } else {
    control = (
      <input
        {...common}
        type="text"
        inputMode={field.kind === 'integer' || field.kind === 'number' ? 'decimal' : undefined}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={`field${field.kind === 'boolean' ? ' checkbox' : ''}`} data-field={field.name}>
      {field.kind === 'boolean' ? (
        <>
          {control}
          {label}
        </>
      ) : (
        <>
          {label}
          {control}
        </>
      )}
      {hint && (
        <span id={hintId} className="marker" data-origin={origin ?? undefined}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error">
          ⚠ {error}
        </span>
      )}
    </div>
  );
}
