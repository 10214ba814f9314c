import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jobSettingsOf } from '../../activities/jobs/settings';
import { detectPii, tagsMarkPii } from '../../activities/clone/masking/pii';
import { applyTemplateEffects, SCHEMA_ONLY_WARNING } from '../../activities/clone/logic/template-effects';
import { defaultTemplateSource, loadTemplate } from '../../config/templates';
import { resolveCloneOptions } from '../../activities/clone/logic/template-merge';
import type { CloneRequestInput } from '../../schemas/clone';

const src = defaultTemplateSource();
const req = (extra: Partial<CloneRequestInput> = {}) =>
  ({ source_catalog: 'prod', destination_catalog: 'dev', ...extra }) as CloneRequestInput;

async function effects(name: string, request = req(), pii: string[] = []) {
  const resolved = resolveCloneOptions({ request, template: loadTemplate(name, src) });
  let listed = 0;
  const out = await applyTemplateEffects({
    options: resolved.options,
    template: resolved.template,
    requestCloneType: request.clone_type,
    piiSchemas: async () => {
      listed++;
      return pii;
    },
  });
  return { ...out, listed };
}

test('schema PII tags follow the column rule, plus the contains_pii flag', () => {
  expect(tagsMarkPii({ pii: 'email' })).toBe(true);
  expect(tagsMarkPii({ classification: 'restricted' })).toBe(true);
  expect(tagsMarkPii({ contains_pii: 'TRUE' })).toBe(true);
  expect(tagsMarkPii({ contains_pii: 'false' })).toBe(false);
  expect(tagsMarkPii({ domain: 'crm', classification: 'public' })).toBe(false);
});

test('minimal maps schema_only to an empty DEEP select copy and turns row checks off', async () => {
  const { options, settings } = await effects('minimal', req({ validate_after_clone: true }));
  expect(options).toMatchObject({ clone_type: 'DEEP', where_clauses: { '*': 'FALSE' }, validate_after_clone: false });
  expect(settings.warnings).toContain(SCHEMA_ONLY_WARNING);
  expect(settings).toMatchObject({ notify_on_success: false, notify_on_failure: false, compliance_report: false });
});

test('request fields beat schema_only: own where_clauses or an explicit SHALLOW', async () => {
  const own = await effects('minimal', req({ where_clauses: { '*': 'id < 10' } }));
  expect(own.options.where_clauses).toEqual({ '*': 'id < 10' });
  expect(own.settings.warnings).toEqual(['schema_only ignored: the request gives its own where_clauses']);
  const shallow = await effects('minimal', req({ clone_type: 'SHALLOW' }));
  expect(shallow.options).toMatchObject({ clone_type: 'SHALLOW', where_clauses: {} });
  expect(shallow.settings.warnings[0]).toMatch(/^schema_only ignored/);
});

test('pii-safe adds tagged schemas to exclude_schemas; other templates never list the source', async () => {
  const pii = await effects('pii-safe', req(), ['crm', 'Default']);
  expect(pii.options.exclude_schemas).toEqual(['information_schema', 'default', 'crm']);
  expect(pii.settings.warnings).toEqual(['exclude_pii_tagged_schemas: left out PII-tagged schema(s) crm, Default']);
  const dev = await effects('dev-refresh');
  expect(dev.listed).toBe(0);
  expect(dev.settings.warnings).toEqual([]);
});

test('audit-copy asks for a compliance report; stored settings default for jobs without them', async () => {
  expect((await effects('audit-copy')).settings.compliance_report).toBe(true);
  expect(jobSettingsOf(null)).toEqual({
    notify_on_success: true,
    notify_on_failure: true,
    compliance_report: false,
    warnings: [],
  });
  expect(jobSettingsOf({ job_settings: { notify_on_success: false } }).notify_on_success).toBe(false);
});

test('masking rules choose strategies per column and add untagged columns', () => {
  const tags = { email: { pii: 'email' }, ssn: { pii: 'ssn' } };
  const rules = [
    { column: '^e', strategy: 'null' as const },
    { column: 'NAME', strategy: 'redact' as const },
  ];
  expect(detectPii(tags, 'partial', rules, ['id', 'email', 'ssn', 'full_name'])).toEqual([
    { column: 'email', pii_type: 'email', strategy: 'null' },
    { column: 'full_name', pii_type: 'rule', strategy: 'redact' },
    { column: 'ssn', pii_type: 'ssn', strategy: 'partial' },
  ]);
  expect(detectPii(tags)).toEqual([
    { column: 'email', pii_type: 'email', strategy: 'email' },
    { column: 'ssn', pii_type: 'ssn', strategy: 'hash' },
  ]);
});

test('rules_file is read relative to the template file into pii_mask_rules; a bad rule names the file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lw-tpl-rules-'));
  try {
    mkdirSync(path.join(dir, 'rules'));
    writeFileSync(path.join(dir, 'rules', 'ok.yaml'), "- { column: 'name$', strategy: REDACT }\n");
    writeFileSync(path.join(dir, 'rules', 'bad.yaml'), "- { column: '(', strategy: redact }\n");
    writeFileSync(path.join(dir, 'ok.yaml'), 'name: ok\nmasking: { enabled: true, rules_file: rules/ok.yaml }\n');
    writeFileSync(path.join(dir, 'bad.yaml'), 'name: bad\nmasking: { enabled: true, rules_file: rules/bad.yaml }\n');
    const source = defaultTemplateSource(dir);
    const { options } = resolveCloneOptions({ request: req(), template: loadTemplate('ok', source, '/') });
    expect(options).toMatchObject({ auto_mask_pii: true, pii_mask_rules: [{ column: 'name$', strategy: 'redact' }] });
    expect(() => loadTemplate('bad', source)).toThrow(
      /bad\.yaml.*rules_file.*0\.column: not a valid regular expression/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
