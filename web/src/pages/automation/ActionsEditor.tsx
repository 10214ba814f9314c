import type { FieldErrors } from '../quality/form';
import { Field } from '../quality/form';
import { newAction, type ActionDraft } from './logic/playbook-draft';

/**
 * The actions of a playbook being created: each one's type, what a failure does and its parameters (name and
 * value rows, added and removed); actions are added and removed too. Every control is labelled with the action's
 * number, and errors sit at the control their path names.
 */
export function ActionsEditor(props: {
  actions: ActionDraft[];
  types: string[];
  errors: FieldErrors;
  onChange: (actions: ActionDraft[]) => void;
}) {
  const { actions, errors, onChange } = props;
  const put = (i: number, a: ActionDraft) => onChange(actions.map((x, k) => (k === i ? a : x)));
  const groupError = errors.at('actions');
  return (
    <fieldset data-testid="playbook-actions">
      <legend>Actions, in order (at least one)</legend>
      {groupError && (
        <p id="field-actions" className="field-error" tabIndex={-1}>
          ⚠ {groupError}
        </p>
      )}
      <ol>
        {actions.map((a, i) => {
          const n = i + 1;
          const paramsError = errors.at(`actions.${i}.params`);
          return (
            <li key={i} data-testid="playbook-action">
              <div className="row-actions">
                <Field name={`actions.${i}.type`} label={`Action ${n} type`} errors={errors}>
                  {(p) => (
                    <select
                      {...p}
                      value={a.type}
                      onChange={(e) =>
                        put(i, {
                          ...newAction(e.target.value),
                          on_failure: a.on_failure,
                          params: a.params.some((x) => x.value.trim()) ? a.params : newAction(e.target.value).params,
                        })
                      }
                    >
                      {props.types.map((t) => (
                        <option key={t} value={t}>
                          {t.replace(/_/g, ' ')}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field name={`actions.${i}.on_failure`} label={`If action ${n} fails`} errors={errors}>
                  {(p) => (
                    <select
                      {...p}
                      value={a.on_failure}
                      onChange={(e) => put(i, { ...a, on_failure: e.target.value as ActionDraft['on_failure'] })}
                    >
                      <option value="stop">stop (skip the later actions)</option>
                      <option value="continue">continue with the next action</option>
                    </select>
                  )}
                </Field>
                <button
                  type="button"
                  disabled={actions.length === 1}
                  onClick={() => onChange(actions.filter((_, k) => k !== i))}
                >
                  Remove action {n}
                </button>
              </div>
              <fieldset>
                <legend>Parameters of action {n}</legend>
                <p className="marker">
                  A value that reads as JSON ({'{…}'}, […], a number, true, false) is sent as such; {'{{event.x}}'} puts
                  in a field of the event.
                </p>
                {a.params.map((p, j) => {
                  const key = p.key.trim();
                  const valueName = key ? `actions.${i}.params.${key}` : `actions.${i}.paramvalue.${j}`;
                  const setParam = (patch: Partial<typeof p>) =>
                    put(i, { ...a, params: a.params.map((x, k) => (k === j ? { ...x, ...patch } : x)) });
                  return (
                    <div className="row-actions" key={j} data-testid="playbook-param">
                      <Field
                        name={`actions.${i}.paramkey.${j}`}
                        label={`Action ${n} parameter ${j + 1} name`}
                        errors={errors}
                      >
                        {(c) => <input {...c} value={p.key} onChange={(e) => setParam({ key: e.target.value })} />}
                      </Field>
                      <Field
                        name={valueName}
                        label={`Action ${n} ${key ? `${key} value` : `parameter ${j + 1} value`}`}
                        errors={errors}
                      >
                        {(c) => <input {...c} value={p.value} onChange={(e) => setParam({ value: e.target.value })} />}
                      </Field>
                      <button
                        type="button"
                        onClick={() => put(i, { ...a, params: a.params.filter((_, k) => k !== j) })}
                      >
                        Remove parameter {key || j + 1} of action {n}
                      </button>
                    </div>
                  );
                })}
                <button
                  type="button"
                  id={`field-actions.${i}.params`}
                  aria-describedby={paramsError ? `field-actions.${i}.params-error` : undefined}
                  onClick={() => put(i, { ...a, params: [...a.params, { key: '', value: '' }] })}
                >
                  Add a parameter to action {n}
                </button>
                {paramsError && (
                  <span id={`field-actions.${i}.params-error`} className="field-error">
                    ⚠ {paramsError}
                  </span>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...actions, newAction('notify')])}>
        Add an action
      </button>
    </fieldset>
  );
}
