import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { InvalidInputError, NotFoundError } from '../errors';
import { assertObjectName } from '../identifiers';
import type { ColumnInfo, TableRef, TimeTravel } from '../types';
import type { DeltaTableApi } from './delta/contract';
import { deltaEngine } from './delta-engine';
import { MetaStore } from './metastore/store';
import type { TableEntry } from './metastore/types';

export interface LocalWorkspaceOptions {
  /** Folder holding the whole workspace (metastore + managed data). */
  root: string;
  /** Who runs statements: becomes owner of new objects and `current_user()`. */
  user?: string;
  /** Groups of the user, for `is_account_group_member()` in masks and filters. */
  groups?: string[];
}

/** State and helpers shared by the workspace's concerns (discovery, tables, governance, SQL). */
export class LocalContext {
  readonly root: string;
  readonly store: MetaStore;
  readonly user: string;
  readonly groups: string[];
  /** Prefix of this root's function macros in the shared DuckDB instance (several roots per process). */
  readonly macroPrefix: string;

  constructor(opts: LocalWorkspaceOptions) {
    if (!opts.root || typeof opts.root !== 'string') throw new InvalidInputError('local workspace root is required');
    this.root = path.resolve(opts.root);
    this.store = new MetaStore(this.root);
    this.user = opts.user ?? process.env.LAKEWARD_USER ?? safeUserName();
    this.groups = opts.groups ?? [];
    this.macroPrefix = `lw_${createHash('sha1').update(this.root).digest('hex').slice(0, 8)}`;
  }

  /** Validates and normalises (Unity Catalog names are case-insensitive and stored lower case). */
  name(value: string, what: string): string {
    return assertObjectName(value, what).toLowerCase();
  }
  ref(ref: TableRef, what = 'table name'): TableRef {
    if (!ref || typeof ref !== 'object')
      throw new InvalidInputError(`${what}: a {catalog, schema, name} reference is required`);
    return {
      catalog: this.name(ref.catalog, 'catalog name'),
      schema: this.name(ref.schema, 'schema name'),
      name: this.name(ref.name, what),
    };
  }

  /** A table (not a view), or NotFoundError. */
  async table(ref: TableRef): Promise<TableEntry> {
    const entry = await this.store.getEntry('tables', ref);
    if (entry.kind !== 'TABLE') throw new InvalidInputError(`${fqnOf(ref)} is a view, not a table`);
    return entry;
  }

  async delta(entry: TableEntry): Promise<DeltaTableApi> {
    if (entry.format !== 'DELTA' || !entry.location) {
      throw new InvalidInputError(`${fqnOf(entry)} is a ${entry.format ?? 'view'} table, not Delta`);
    }
    try {
      return await deltaEngine().open(entry.location);
    } catch (err) {
      if (err instanceof NotFoundError)
        throw new NotFoundError(`data of table ${fqnOf(entry)} is missing at ${entry.location}`, { cause: err });
      throw err;
    }
  }

  /** Columns with Databricks types and the metastore's column comments. */
  async columns(entry: TableEntry, at?: TimeTravel): Promise<ColumnInfo[]> {
    const fields =
      entry.format === 'DELTA'
        ? (await (await this.delta(entry)).snapshot(at)).metadata.schema
        : (entry.columns ?? []).map((c) => ({ name: c.name, type: c.type, nullable: c.nullable ?? true }));
    return fields.map((f, i) => ({
      name: f.name,
      type: f.type.toLowerCase(),
      nullable: f.nullable,
      comment: entry.columnComments[f.name] ?? null,
      position: i + 1,
    }));
  }

  functionMacroName(ref: TableRef): string {
    return `${this.macroPrefix}__${ref.catalog}__${ref.schema}__${ref.name}`;
  }
}

export function fqnOf(ref: { catalog: string; schema: string; name: string }): string {
  return `${ref.catalog}.${ref.schema}.${ref.name}`;
}

function safeUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'local_user';
  }
}
