/**
 * The argument form of a check function, built from `GET /api/governance/dqx/check-functions`: each argument's
 * type picks a control, and the texts typed there become the `arguments` object of the create request.
 */
export interface CheckFunctionArg {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export type ArgControl = 'column' | 'text' | 'textarea' | 'number' | 'boolean' | 'list' | 'json';

export function controlOf(type: string): ArgControl {
  switch (type) {
    case 'column':
      return 'column';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'columns':
    case 'list':
      return 'list';
    case 'object':
      return 'json';
    case 'sql_query':
    case 'sql_expression':
      return 'textarea';
    default:
      return 'text';
  }
}

/** What a user is told to type for a type (lists: comma-separated). */
export function hintOf(type: string): string | undefined {
  if (type === 'columns') return 'column names, separated by commas';
  if (type === 'list') return 'values, separated by commas';
  if (type === 'limit') return 'a number, or a date or timestamp';
  if (type === 'object') return 'a JSON object';
  if (type === 'table') return 'catalog.schema.table';
  return undefined;
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * The `arguments` of a request from the texts of the form (an empty optional argument is left out, so the
 * server's default applies), or the problems found, each at `arguments.<name>` as the API would name it.
 */
export function buildArguments(
  args: CheckFunctionArg[],
  texts: Record<string, string>,
): { arguments: Record<string, unknown>; problems: { path: string; message: string }[] } {
  const out: Record<string, unknown> = {};
  const problems: { path: string; message: string }[] = [];
  for (const a of args) {
    const raw = (texts[a.name] ?? '').trim();
    const path = `arguments.${a.name}`;
    if (raw === '') {
      if (a.required) problems.push({ path, message: 'is required' });
      continue;
    }
    switch (a.type) {
      case 'number':
      case 'integer': {
        const n = Number(raw);
        if (!NUMBER.test(raw) || !Number.isFinite(n)) problems.push({ path, message: 'must be a number' });
        else if (a.type === 'integer' && !Number.isInteger(n)) problems.push({ path, message: 'must be an integer' });
        else out[a.name] = n;
        break;
      }
      case 'boolean':
        out[a.name] = raw === 'true';
        break;
      case 'columns':
      case 'list': {
        const items = splitList(raw);
        if (!items.length) problems.push({ path, message: 'needs at least one value' });
        else out[a.name] = items;
        break;
      }
      case 'limit':
        out[a.name] = NUMBER.test(raw) ? Number(raw) : raw;
        break;
      case 'object':
        try {
          const v: unknown = JSON.parse(raw);
          if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
          out[a.name] = v;
        } catch {
          problems.push({ path, message: 'must be a JSON object' });
        }
        break;
      default:
        out[a.name] = raw;
    }
  }
  return { arguments: out, problems };
}
