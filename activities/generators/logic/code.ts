import { itemSources } from './rng';

export interface RepoFile {
  path: string;
  text: string;
}

export interface Repo {
  name: string;
  title: string;
  summary: string;
  files: RepoFile[];
}

/** Python and Java keywords and literals (a generated name that is one gets a suffix). */
const RESERVED = new Set(
  (
    'false none true and as assert async await break class continue def del elif else except finally for from global if ' +
    'import in is lambda nonlocal not or pass raise return try while with yield match case type abstract boolean byte ' +
    'catch char const default do double enum extends final float goto implements instanceof int interface long native ' +
    'new null package private protected public short static strictfp super switch synchronized this throw throws ' +
    'transient void volatile var record sealed permits id'
  ).split(' '),
);
const safe = (s: string) => (RESERVED.has(s) || /^[0-9]/.test(s) ? `${s}_x` : s);
const snake = (s: string) =>
  safe(
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'item',
  );
const camel = (s: string) => snake(s).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (s: string) => {
  const c = camel(s);
  return /^[a-z]/.test(c) ? c[0].toUpperCase() + c.slice(1) : `X${c}`;
};
const quote = (s: string) => JSON.stringify(s);

/** A small repository (README, sources, a test) in Python, JavaScript or Java; every source file parses. */
export function buildRepo(type: string, seed: number, asOf: string, index: number): Repo {
  const { rng, faker } = itemSources(seed, asOf, 'code', type, index);
  const noun = faker.word.noun({ length: { min: 4, max: 9 } });
  const entity = `${pascal(noun)}Item`;
  const fieldNames = [
    ...new Set(Array.from({ length: rng.int(3, 5) }, () => snake(faker.word.noun({ length: { min: 3, max: 9 } })))),
  ];
  const slug = `${snake(faker.word.adjective({ length: { min: 3, max: 8 } }))}-${snake(noun)}`.replace(/_/g, '-');
  const name = `repo-${String(index + 1).padStart(3, '0')}-${slug}`;
  const limit = rng.int(10, 500);
  const title = `${entity} service (${type})`;
  const summary = `A ${type} service that stores ${noun} records with ${fieldNames.length} fields and a limit of ${limit}.`;
  const readme = `# ${name}\n\n${summary}\n\nAuthor: ${faker.person.fullName()} <${faker.internet.email()}>\n`;
  const sample = fieldNames.map((f) => [f, faker.word.sample()] as const);
  if (type === 'python') {
    const pkg = snake(noun);
    const files: RepoFile[] = [
      { path: 'README.md', text: readme },
      { path: 'pyproject.toml', text: `[project]\nname = ${quote(slug)}\nversion = "0.${rng.int(1, 9)}.0"\n` },
      {
        path: `src/${pkg}/__init__.py`,
        text: `from .models import ${entity}\nfrom .service import ${entity}Store\n\n__all__ = [${quote(entity)}, ${quote(`${entity}Store`)}]\n`,
      },
      {
        path: `src/${pkg}/models.py`,
        text: `from dataclasses import dataclass\n\n\n@dataclass\nclass ${entity}:\n    id: int\n${fieldNames.map((f) => `    ${f}: str = ""\n`).join('')}`,
      },
      {
        path: `src/${pkg}/service.py`,
        text: `from typing import Dict, List, Optional\n\nfrom .models import ${entity}\n\nLIMIT = ${limit}\n\n\nclass ${entity}Store:\n    def __init__(self) -> None:\n        self._items: Dict[int, ${entity}] = {}\n\n    def add(self, item: ${entity}) -> None:\n        if len(self._items) >= LIMIT:\n            raise ValueError("store is full")\n        self._items[item.id] = item\n\n    def get(self, item_id: int) -> Optional[${entity}]:\n        return self._items.get(item_id)\n\n    def all(self) -> List[${entity}]:\n        return sorted(self._items.values(), key=lambda i: i.id)\n`,
      },
      {
        path: 'tests/test_service.py',
        text: `from ${pkg} import ${entity}, ${entity}Store\n\n\ndef test_add_and_get():\n    store = ${entity}Store()\n    store.add(${entity}(id=1${sample.map(([f, v]) => `, ${f}=${quote(v)}`).join('')}))\n    assert store.get(1) is not None\n`,
      },
    ];
    return { name, title, summary, files };
  }
  if (type === 'javascript') {
    const mod = camel(noun);
    const files: RepoFile[] = [
      { path: 'README.md', text: readme },
      {
        path: 'package.json',
        text:
          JSON.stringify(
            { name: slug, version: `0.${rng.int(1, 9)}.0`, main: 'src/index.js', scripts: { test: 'node --test' } },
            null,
            2,
          ) + '\n',
      },
      {
        path: 'src/index.js',
        text: `'use strict';\n\nconst { ${entity}Store } = require('./${mod}-store');\n\nmodule.exports = { ${entity}Store };\n`,
      },
      {
        path: `src/${mod}-store.js`,
        text: `'use strict';\n\nconst LIMIT = ${limit};\nconst FIELDS = ${JSON.stringify(fieldNames)};\n\nclass ${entity}Store {\n  constructor() {\n    this.items = new Map();\n  }\n\n  add(item) {\n    if (this.items.size >= LIMIT) throw new Error('store is full');\n    for (const f of FIELDS) if (!(f in item)) throw new Error(\`missing \${f}\`);\n    this.items.set(item.id, item);\n  }\n\n  get(id) {\n    return this.items.get(id) ?? null;\n  }\n}\n\nmodule.exports = { ${entity}Store, LIMIT };\n`,
      },
      {
        path: `test/${mod}-store.test.js`,
        text: `'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { ${entity}Store } = require('../src');\n\ntest('adds and gets', () => {\n  const store = new ${entity}Store();\n  store.add({ id: 1, ${sample.map(([f, v]) => `${f}: ${quote(v)}`).join(', ')} });\n  assert.ok(store.get(1));\n});\n`,
      },
    ];
    return { name, title, summary, files };
  }
  if (type === 'java') {
    const pkg = `com.${snake(faker.word.noun({ length: { min: 3, max: 8 } }))}.${snake(noun)}`;
    const dir = pkg.replace(/\./g, '/');
    const files: RepoFile[] = [
      { path: 'README.md', text: readme },
      {
        path: 'pom.xml',
        text: `<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>${pkg}</groupId>\n  <artifactId>${slug}</artifactId>\n  <version>0.${rng.int(1, 9)}.0</version>\n</project>\n`,
      },
      {
        path: `src/main/java/${dir}/${entity}.java`,
        text: `package ${pkg};\n\npublic final class ${entity} {\n  private final long id;\n${fieldNames.map((f) => `  private final String ${camel(f)};\n`).join('')}\n  public ${entity}(long id${fieldNames.map((f) => `, String ${camel(f)}`).join('')}) {\n    this.id = id;\n${fieldNames.map((f) => `    this.${camel(f)} = ${camel(f)};\n`).join('')}  }\n\n  public long getId() {\n    return id;\n  }\n}\n`,
      },
      {
        path: `src/main/java/${dir}/${entity}Store.java`,
        text: `package ${pkg};\n\nimport java.util.LinkedHashMap;\nimport java.util.Map;\nimport java.util.Optional;\n\npublic final class ${entity}Store {\n  public static final int LIMIT = ${limit};\n  private final Map<Long, ${entity}> items = new LinkedHashMap<>();\n\n  public void add(${entity} item) {\n    if (items.size() >= LIMIT) {\n      throw new IllegalStateException("store is full");\n    }\n    items.put(item.getId(), item);\n  }\n\n  public Optional<${entity}> get(long id) {\n    return Optional.ofNullable(items.get(id));\n  }\n}\n`,
      },
      {
        path: `src/test/java/${dir}/${entity}StoreCheck.java`,
        text: `package ${pkg};\n\npublic final class ${entity}StoreCheck {\n  public static void main(String[] args) {\n    ${entity}Store store = new ${entity}Store();\n    store.add(new ${entity}(1L${sample.map(([, v]) => `, ${quote(v)}`).join('')}));\n    if (!store.get(1L).isPresent()) {\n      throw new AssertionError("missing");\n    }\n  }\n}\n`,
      },
    ];
    return { name, title, summary, files };
  }
  throw new Error(`unknown code type ${type}`);
}
