import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { FrameworkDocumentSchema, type FrameworkDocument } from '../schemas/compliance';

/** The built-in compliance frameworks shipped with Lakeward (soc2, gdpr, hipaa, ccpa, dora). */
export const BUILTIN_FRAMEWORK_DIR = path.resolve(__dirname, 'compliance');

/** A framework document that is not valid: each problem names its path in the document (`controls.2.title`). */
export class FrameworkDocumentError extends Error {
  constructor(
    message: string,
    readonly problems: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'FrameworkDocumentError';
  }
}

/** Parses and validates a framework from YAML text; `origin` names it in messages (a file, or the request). */
export function parseFrameworkYaml(text: string, origin: string): FrameworkDocument {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    throw new FrameworkDocumentError(`${origin} is not YAML: ${message}`, [{ path: '(root)', message }]);
  }
  const parsed = FrameworkDocumentSchema.safeParse(doc);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => ({
    path: i.path.join('.') || '(root)',
    message: i.code === 'unrecognized_keys' ? `unknown key(s) ${i.keys.join(', ')}` : i.message,
  }));
  const text2 = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  throw new FrameworkDocumentError(`${origin} is not a valid framework: ${text2}`, problems);
}

/** Every built-in framework, validated (a bad file fails loudly, naming the file and the path). */
export function loadBuiltinFrameworks(dir = BUILTIN_FRAMEWORK_DIR): FrameworkDocument[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/i.test(f))
    .sort()
    .map((f) => parseFrameworkYaml(readFileSync(path.join(dir, f), 'utf8'), path.join(dir, f)));
}
