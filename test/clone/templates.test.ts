import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLONE_DEFAULTS, cloneRequestSchema } from '../../schemas/clone';
import { defaultTemplateSource, listTemplates, loadTemplate, BUILTIN_TEMPLATE_DIR } from '../../config/templates';
import { resolveCloneOptions } from '../../activities/clone/logic/template-merge';
import { configFileFields } from '../../config/clone-file-fields';
import type { CloneTemplate } from '../../activities/clone/logic/template-schema';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lw-templates-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const req = (extra: Record<string, unknown> = {}) =>
  cloneRequestSchema.parse({ source_catalog: 'src', destination_catalog: 'dst', ...extra });

test('the six built-in templates load and are listed with name, description and clone type', () => {
  const list = listTemplates(defaultTemplateSource());
  expect(list.map((t) => t.name)).toEqual([
    'audit-copy',
    'dev-refresh',
    'dr-replica',
    'full-mirror',
    'minimal',
    'pii-safe',
  ]);
  expect(list.find((t) => t.name === 'dev-refresh')).toMatchObject({ clone_type: 'SHALLOW' });
  expect(list.find((t) => t.name === 'dr-replica')).toMatchObject({ clone_type: 'DEEP' });
  for (const t of list) expect(t.description.length).toBeGreaterThan(10);
});

test('built-ins carry the behaviour the spec describes', () => {
  const src = defaultTemplateSource();
  const o = (name: string) => resolveCloneOptions({ request: req(), template: loadTemplate(name, src) }).options;
  expect(o('dev-refresh')).toMatchObject({
    clone_type: 'SHALLOW',
    copy_permissions: false,
    copy_ownership: false,
    validate_after_clone: false,
  });
  expect(o('dr-replica')).toMatchObject({
    clone_type: 'DEEP',
    copy_permissions: true,
    copy_ownership: true,
    copy_tags: true,
    validate_after_clone: true,
    validate_checksum: true,
    enable_rollback: true,
    auto_rollback: true,
  });
  expect(o('audit-copy')).toMatchObject({ clone_type: 'DEEP', copy_security: true, copy_ownership: true });
  expect(resolveCloneOptions({ request: req(), template: loadTemplate('audit-copy', src) }).template).toMatchObject({
    checkpoint: true,
    compliance_report: true,
  });
  expect(o('pii-safe')).toMatchObject({ clone_type: 'DEEP', auto_mask_pii: true });
  expect(resolveCloneOptions({ request: req(), template: loadTemplate('pii-safe', src) }).template).toMatchObject({
    exclude_pii_tagged_schemas: true,
  });
  expect(o('minimal')).toMatchObject({
    clone_type: 'SHALLOW',
    copy_tags: false,
    copy_properties: false,
    copy_comments: false,
    copy_permissions: false,
  });
  expect(resolveCloneOptions({ request: req(), template: loadTemplate('minimal', src) }).template).toMatchObject({
    schema_only: true,
  });
  expect(o('full-mirror')).toMatchObject({
    clone_type: 'DEEP',
    copy_permissions: true,
    copy_tags: true,
    copy_properties: true,
    copy_security: true,
  });
});

// Each key: [default, template value, config-file value (or undefined: not a config key), request value].
const LAYERED: Record<string, [unknown, unknown, unknown, unknown]> = {
  clone_type: ['DEEP', 'SHALLOW', undefined, 'DEEP'],
  load_type: ['FULL', 'INCREMENTAL', undefined, 'SELECTIVE'],
  max_workers: [4, 8, 12, 16],
  parallel_tables: [1, 2, 3, 5],
  copy_permissions: [true, false, undefined, true],
  copy_ownership: [true, false, undefined, true],
  copy_tags: [true, false, undefined, true],
  copy_properties: [true, false, undefined, true],
  copy_constraints: [true, false, undefined, true],
  copy_comments: [true, false, undefined, true],
  enable_rollback: [true, false, undefined, true],
  validate_after_clone: [false, true, undefined, false],
  rollback_threshold: [undefined, 1, 2, 3],
  auto_rollback: [undefined, true, undefined, false],
  exclude_schemas: [['information_schema', 'default'], ['x'], undefined, ['y']],
  auto_mask_pii: [false, true, undefined, false],
  max_rps: [0, undefined, 7, 9],
  dq_drift_rollback_pct: [5, undefined, 10, 20],
};

function templateSetting(key: string, value: unknown): CloneTemplate {
  const section: Record<string, string> = {
    clone_type: 'clone_options',
    load_type: 'clone_options',
    max_workers: 'clone_options',
    parallel_tables: 'clone_options',
    enable_rollback: 'safety',
    validate_after_clone: 'safety',
    rollback_threshold: 'safety',
    auto_rollback: 'safety',
    exclude_schemas: 'filters',
    auto_mask_pii: 'masking',
  };
  const sec = section[key] ?? 'metadata';
  const k = key === 'auto_mask_pii' ? 'enabled' : key;
  return { name: 't', description: '', version: '1', [sec]: { [k]: value } } as CloneTemplate;
}

test.each(Object.entries(LAYERED))(
  'precedence for %s: defaults < template < config file < request',
  (key, [def, tpl, cfg, rq]) => {
    const pick = (r: ReturnType<typeof resolveCloneOptions>) => (r.options as Record<string, unknown>)[key];
    expect(pick(resolveCloneOptions({ request: req() }))).toEqual(
      def ?? (CLONE_DEFAULTS as Record<string, unknown>)[key],
    );
    const template = tpl === undefined ? null : templateSetting(key, tpl);
    if (template) expect(pick(resolveCloneOptions({ request: req(), template }))).toEqual(tpl);
    let configFile = {};
    if (cfg !== undefined) {
      const file = path.join(dir, 'lakeward.yaml');
      writeFileSync(file, `clone:\n  ${key}: ${JSON.stringify(cfg)}\n`);
      configFile = configFileFields(file, { [key]: cfg });
      expect(pick(resolveCloneOptions({ request: req(), template, configFile }))).toEqual(cfg);
    }
    expect(pick(resolveCloneOptions({ request: req({ [key]: rq }), template, configFile }))).toEqual(rq);
  },
);

test('config defaults that the file does not write do not override a template', () => {
  const file = path.join(dir, 'lakeward.yaml');
  writeFileSync(file, 'clone:\n  max_rps: 3\n');
  // The loaded config holds max_workers 4 as a schema default; the template's 8 must survive.
  const configFile = configFileFields(file, { max_workers: 4, parallel_tables: 1, max_rps: 3 });
  const { options } = resolveCloneOptions({ request: req(), template: templateSetting('max_workers', 8), configFile });
  expect(options.max_workers).toBe(8);
  expect(options.max_rps).toBe(3);
});

test('custom templates by name override built-ins, and templates load by file path', () => {
  writeFileSync(
    path.join(dir, 'dev-refresh.yaml'),
    'name: dev-refresh\ndescription: ours\nclone_options:\n  max_workers: 2\n',
  );
  writeFileSync(
    path.join(dir, 'nightly.yaml'),
    'name: nightly\ndescription: nightly copy\nclone_options:\n  clone_type: shallow\n',
  );
  const src = defaultTemplateSource(dir);
  expect(loadTemplate('dev-refresh', src).clone_options?.max_workers).toBe(2);
  expect(listTemplates(src).find((t) => t.name === 'nightly')).toEqual({
    name: 'nightly',
    description: 'nightly copy',
    clone_type: 'SHALLOW',
  });
  expect(loadTemplate(path.join(dir, 'nightly.yaml'), src).name).toBe('nightly');
  expect(loadTemplate(path.join(BUILTIN_TEMPLATE_DIR, 'minimal.yaml'), { dirs: [] }).name).toBe('minimal');
});

test('bad templates fail with a typed error naming the problem', () => {
  const src = defaultTemplateSource(dir);
  expect(() => loadTemplate('no-such', src)).toThrow(/unknown template "no-such".*dev-refresh/);
  expect(() => loadTemplate('../etc/passwd', src)).toThrow(/file not found/);
  writeFileSync(path.join(dir, 'typo.yaml'), 'name: typo\nsafety:\n  rollback_treshold: 2\n');
  expect(() => loadTemplate('typo', src)).toThrow(/safety: unknown key\(s\) rollback_treshold/);
  writeFileSync(path.join(dir, 'range.yaml'), 'name: range\nsafety:\n  rollback_threshold: 400\n');
  expect(() => loadTemplate('range', src)).toThrow(/safety.rollback_threshold/);
  expect(() => loadTemplate('range', src)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
});

test('a template masking strategy reaches the clone options (the masker reads the same key)', () => {
  const t = {
    name: 't',
    description: '',
    version: '1',
    masking: { enabled: true, strategy: 'partial' },
  } as CloneTemplate;
  expect(resolveCloneOptions({ request: req(), template: t }).options).toMatchObject({
    auto_mask_pii: true,
    pii_mask_strategy: 'partial',
  });
  expect(
    resolveCloneOptions({ request: req({ pii_mask_strategy: 'hash' }), template: t }).options.pii_mask_strategy,
  ).toBe('hash');
});
