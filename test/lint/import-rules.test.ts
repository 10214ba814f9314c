import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The import table is enforced by lint: sample files at virtual paths in each layer, linted by ESLint's Node API
 * with the project's own eslint.config.mjs. Jest's VM cannot load an ES module config, so ESLint runs in a child
 * node process; type-aware parsing is off for the samples (they are not files of the TS project).
 */
const RULE = '@typescript-eslint/no-restricted-imports';
const LINT_SCRIPT = `
  const { ESLint } = require('eslint');
  const samples = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    ruleFilter: ({ ruleId }) => ruleId === '${RULE}',
  });
  (async () => {
    const out = [];
    for (const s of samples) {
      const [r] = await eslint.lintText(s.code, { filePath: s.filePath });
      out.push(r.messages.map((m) => (m.ruleId ?? 'fatal') + ': ' + m.message));
    }
    process.stdout.write(JSON.stringify(out));
  })();
`;

function lint(samples: { filePath: string; code: string }[]): string[][] {
  const out = execFileSync(process.execPath, ['-e', LINT_SCRIPT], {
    cwd: path.resolve(__dirname, '../..'),
    input: JSON.stringify(samples),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const SAMPLES = {
  workflowRuntimeActivity: {
    filePath: 'workflows/x.ts',
    code: lines(
      "import { createTableActivities } from '../activities/clone/table-batch';",
      'export const f = createTableActivities;',
    ),
  },
  activityImportsApi: {
    filePath: 'activities/x.ts',
    code: lines("import type { AppDeps } from '../api/deps';", 'export type D = AppDeps;'),
  },
  workflowImportsWorkers: {
    filePath: 'workflows/y.ts',
    code: lines("import { logger } from '../workers/logger';", 'export const l = logger;'),
  },
  logicReadsFiles: {
    filePath: 'activities/clone/logic/x.ts',
    code: lines("import { readFileSync } from 'node:fs';", 'export const read = readFileSync;'),
  },
  apiImportsActivity: {
    filePath: 'api/clone/x.ts',
    code: lines(
      "import { createTableActivities } from '../../activities/clone/table-batch';",
      'export const f = createTableActivities;',
    ),
  },
  compliantWorkflow: {
    filePath: 'workflows/clone/x.ts',
    code: lines(
      "import type { CloneActivities } from '../../activities/clone';",
      "import { limitsAt } from '../../activities/clone/logic/throttle-limits';",
      "import type { CloneOptions } from '../../schemas/clone';",
      "import { cloneCatalogWorkflow } from './clone-catalog';",
      'export type A = CloneActivities;',
      'export const x = (o: CloneOptions) => [limitsAt(o, new Date()), cloneCatalogWorkflow];',
    ),
  },
  compliantActivity: {
    filePath: 'activities/clone/x.ts',
    code: lines(
      "import { InvalidInputError } from '../../platform/errors';",
      "import type { Db } from '../../store/db';",
      "import type { Config } from '../../config/load';",
      "import type { TargetContext } from '../../workflows/clone/engine-types';",
      "import { limitsAt } from './logic/throttle-limits';",
      'export type T = [Db, Config, TargetContext];',
      'export const x = [InvalidInputError, limitsAt];',
    ),
  },
  compliantApi: {
    filePath: 'api/clone/x.ts',
    code: lines(
      "import { rollbackLogView } from '../../activities/clone/logic/rollback-view';",
      "import { releaseQuiesceSignal } from '../../workflows/clone/definitions';",
      "import { getTarget } from '../../store/targets/repo';",
      'export const x = [rollbackLogView, releaseQuiesceSignal, getTarget];',
    ),
  },
};
type Sample = keyof typeof SAMPLES;

let found: Record<Sample, string[]>;
beforeAll(() => {
  const names = Object.keys(SAMPLES) as Sample[];
  const results = lint(names.map((n) => SAMPLES[n]));
  found = Object.fromEntries(names.map((n, i) => [n, results[i]])) as Record<Sample, string[]>;
}, 60_000);

test('a workflow may not import activity code at run time', () => {
  expect(found.workflowRuntimeActivity).toEqual([
    expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*Workflows import activity TYPES only/),
  ]);
});

test('an activity may not import the API', () => {
  expect(found.activityImportsApi).toEqual([
    `${RULE}: '../api/deps' import is restricted from being used by a pattern. Only workers/ and tests import api/ (import-table).`,
  ]);
});

test('a workflow may not import workers/', () => {
  expect(found.workflowImportsWorkers).toEqual([expect.stringContaining('Only entry points import workers/')]);
});

test('a logic/ module may not do file I/O', () => {
  expect(found.logicReadsFiles).toEqual([expect.stringContaining('logic/ has no I/O')]);
});

test('the API may not import an activity module outside logic/', () => {
  expect(found.apiImportsActivity).toEqual([expect.stringContaining('activities/*/logic/ only')]);
});

test('imports the table allows produce no error', () => {
  expect(found.compliantWorkflow).toEqual([]);
  expect(found.compliantActivity).toEqual([]);
  expect(found.compliantApi).toEqual([]);
});
