import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { InvalidInputError } from '../platform/errors';
import { piiMaskRuleSchema } from '../schemas/clone';
import { templateSchema, type CloneTemplate } from '../activities/clone/logic/template-schema';

/** The built-in templates shipped with Lakeward. */
export const BUILTIN_TEMPLATE_DIR = path.resolve(__dirname, 'templates');

export interface TemplateSource {
  /** Folders searched for `<name>.yaml`; later folders override earlier ones (custom over built-in). */
  dirs: string[];
}

export function defaultTemplateSource(customDir?: string): TemplateSource {
  const dirs = [BUILTIN_TEMPLATE_DIR];
  if (customDir && path.resolve(customDir) !== BUILTIN_TEMPLATE_DIR) dirs.push(path.resolve(customDir));
  return { dirs };
}

const looksLikePath = (ref: string) => ref.includes('/') || ref.includes(path.sep) || /\.ya?ml$/i.test(ref);

/** Reads and validates one template file; problems name the file and the key path. */
export function readTemplateFile(file: string): CloneTemplate {
  let doc: unknown;
  try {
    doc = YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InvalidInputError(`template: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = templateSchema.safeParse(doc);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const where = i.path.join('.') || '(root)';
      return i.code === 'unrecognized_keys'
        ? `${where}: unknown key(s) ${i.keys.join(', ')}`
        : `${where}: ${i.message}`;
    });
    throw new InvalidInputError(`template: ${file} is not a valid template: ${issues.join('; ')}`);
  }
  return withMaskingRules(parsed.data, file);
}

/** Reads masking.rules_file (relative to the template file) into masking.rules, so a bad file fails loading. */
function withMaskingRules(t: CloneTemplate, templateFile: string): CloneTemplate {
  const ref = t.masking?.rules_file;
  if (!t.masking || !ref) return t;
  const file = path.resolve(path.dirname(templateFile), ref);
  let doc: unknown;
  try {
    doc = YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InvalidInputError(`template: ${templateFile}: masking.rules_file ${file}: ${(err as Error).message}`);
  }
  const rules = z.array(piiMaskRuleSchema).safeParse(doc);
  if (!rules.success) {
    const why = rules.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InvalidInputError(`template: ${templateFile}: masking.rules_file ${file} is not a rule list: ${why}`);
  }
  return { ...t, masking: { ...t.masking, rules_file: file, rules: [...(t.masking.rules ?? []), ...rules.data] } };
}

/** A template in a template folder must be named like its file, so lookup by name and listing agree. */
function readNamedTemplate(file: string, stem: string): CloneTemplate {
  const t = readTemplateFile(file);
  if (t.name !== stem)
    throw new InvalidInputError(`template: ${file} declares name "${t.name}"; rename it or the file`);
  return t;
}

/** A template by name (searched in the source folders, custom first) or by file path. */
export function loadTemplate(ref: string, source: TemplateSource, cwd = process.cwd()): CloneTemplate {
  if (looksLikePath(ref)) {
    const file = path.resolve(cwd, ref);
    if (!existsSync(file)) throw new InvalidInputError(`template: file not found: ${file}`);
    return readTemplateFile(file);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(ref)) {
    throw new InvalidInputError(`template: "${ref}" is not a template name (letters, digits, - and _) or a .yaml path`);
  }
  for (const dir of [...source.dirs].reverse()) {
    for (const ext of ['.yaml', '.yml']) {
      const file = path.join(dir, ref + ext);
      if (existsSync(file)) return readNamedTemplate(file, ref);
    }
  }
  throw new InvalidInputError(
    `template: unknown template "${ref}" (known: ${listTemplates(source)
      .map((t) => t.name)
      .join(', ')})`,
  );
}

export interface TemplateListItem {
  name: string;
  description: string;
  clone_type: string;
}

/** Every template, one per name (custom folders override built-ins), sorted by name. */
export function listTemplates(source: TemplateSource): TemplateListItem[] {
  const byName = new Map<string, TemplateListItem>();
  for (const dir of source.dirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir)
      .filter((f) => /\.ya?ml$/i.test(f))
      .sort()) {
      const t = readNamedTemplate(path.join(dir, entry), entry.replace(/\.ya?ml$/i, ''));
      byName.set(t.name, {
        name: t.name,
        description: t.description,
        clone_type: t.clone_options?.clone_type ?? 'DEEP',
      });
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
