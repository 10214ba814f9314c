import { AlreadyExistsError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { GenerateInput } from '../../schemas/generators';
import { checkCancelled, stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { generateChunkItems } from './chunk';
import { tableColumns } from './logic/columns';
import { itemBaseName, stagingFolder, tableNameFor, type Chunk } from './logic/plan';

export { writeLogFiles, type WriteLogFilesOptions, type WrittenLogFile } from './logs-writer';

export interface ChunkResult {
  seq: number;
  type: string;
  files: number;
  bytes: number;
  lines: number;
  rows: number;
}

export interface CommitResult {
  table: string | null;
  rows: number;
  staleFilesRemoved: number;
}

const volumeOf = (i: GenerateInput): TableRef => ({ catalog: i.catalog, schema: i.schema, name: i.volume });
const tableOf = (i: GenerateInput): TableRef | null => {
  const name = tableNameFor(i.kind, i.destination);
  return name ? { catalog: i.catalog, schema: i.schema, name } : null;
};
const rowsFolder = (i: GenerateInput) => `${stagingFolder(i.jobId)}/rows`;

/** Files under `<kind>/` in the volume (none when the volume is new). */
async function kindFiles(ws: Workspace, input: GenerateInput): Promise<string[]> {
  const files = await ws.listVolumeFiles(volumeOf(input));
  return files.map((f) => f.path).filter((p) => p.startsWith(`${input.kind}/`));
}

/**
 * Generator activities: prepare (catalog check, schema and volume, if_exists), one activity per chunk (files
 * under deterministic names plus staged rows), one commit of every row (COPY INTO on Databricks), and the
 * removal of the job's staging folder.
 */
export function createGeneratorActivities(deps: { workspaces: WorkspaceResolver }) {
  const workspace = async () => stopOnCancel(await deps.workspaces.default());
  return {
    async prepareGeneration(input: GenerateInput): Promise<{ volumePath: string; table: string | null }> {
      const ws = await workspace();
      await ws.getCatalog(input.catalog);
      await ws.createSchema({ catalog: input.catalog, name: input.schema, ifNotExists: true });
      await ws.createVolume({ ref: volumeOf(input), ifNotExists: true });
      const table = tableOf(input);
      if (input.ifExists === 'fail') {
        if (table && (await ws.tableExists(table)))
          throw new AlreadyExistsError(
            `${table.catalog}.${table.schema}.${table.name} exists and if_exists is fail (use replace or append)`,
          );
        if (input.destination !== 'direct_table' && (await kindFiles(ws, input)).length > 0)
          throw new AlreadyExistsError(
            `/Volumes/${input.catalog}/${input.schema}/${input.volume}/${input.kind}/ has files and if_exists is fail (use replace or append)`,
          );
      }
      await ws.deleteVolumePath(volumeOf(input), stagingFolder(input.jobId));
      return {
        volumePath: `/Volumes/${input.catalog}/${input.schema}/${input.volume}/${input.kind}/`,
        table: table ? `${table.catalog}.${table.schema}.${table.name}` : null,
      };
    },

    async generateChunk(input: GenerateInput, chunk: Chunk): Promise<ChunkResult> {
      return withHeartbeat(async () => {
        const ws = await workspace();
        const volume = volumeOf(input);
        const out = await generateChunkItems(
          input,
          chunk,
          {
            write: (rel, data) => ws.writeVolumeFile(volume, rel, data),
            folder: (rel) => ws.localVolumeFolder(volume, rel),
          },
          () => checkCancelled(),
        );
        if (tableOf(input) && out.rows.length > 0) {
          const ndjson = out.rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
          const name = `part-${String(chunk.seq).padStart(5, '0')}.json`;
          await ws.writeVolumeFile(volume, `${rowsFolder(input)}/${name}`, Buffer.from(ndjson, 'utf8'));
        }
        return {
          seq: chunk.seq,
          type: chunk.type,
          files: out.files,
          bytes: out.bytes,
          lines: out.lines,
          rows: out.rows.length,
        };
      });
    },

    /**
     * Every staged row in one load, after every file is written (so no row lacks its file); with replace the
     * table is recreated first and, once the rows are in, files under `<kind>/` this run did not write go.
     */
    async commitGeneration(input: GenerateInput, stagedChunks: number): Promise<CommitResult> {
      return withHeartbeat(async () => {
        const ws = await workspace();
        const table = tableOf(input);
        let rows = 0;
        if (table) {
          if (input.ifExists === 'replace') await ws.dropTable(table, { ifExists: true });
          if (!(await ws.tableExists(table)))
            await ws.createTable({ ref: table, columns: tableColumns(input.kind, input.destination) });
          if (stagedChunks > 0)
            rows = (
              await ws.copyIntoFromVolume(table, {
                volume: volumeOf(input),
                path: rowsFolder(input),
                columns: tableColumns(input.kind, input.destination),
              })
            ).numOutputRows;
        }
        let staleFilesRemoved = 0;
        if (input.ifExists === 'replace' && input.destination !== 'direct_table') {
          const keep = new Set<string>();
          for (const [type, n] of Object.entries(input.counts))
            for (let i = 0; i < n; i++) keep.add(`${input.kind}/${type}/${itemBaseName(type, input.seed, i)}`);
          for (const p of await kindFiles(ws, input)) {
            // Files are `<type>-s<seed>-<nnnnn>.<ext>`, repositories folders `<type>-s<seed>-<nnnnn>-<slug>/`.
            const [kind, type, name] = p.split('/');
            const base = /^[a-z_]+-s\d+-\d{5}/.exec(name ?? '')?.[0];
            if (!base || !keep.has(`${kind}/${type}/${base}`)) {
              await ws.deleteVolumePath(volumeOf(input), p);
              staleFilesRemoved++;
            }
          }
        }
        return { table: table ? `${table.catalog}.${table.schema}.${table.name}` : null, rows, staleFilesRemoved };
      });
    },

    async cleanupGeneration(input: GenerateInput): Promise<void> {
      const ws = await deps.workspaces.default();
      await ws.deleteVolumePath(volumeOf(input), stagingFolder(input.jobId));
    },
  };
}

export type GeneratorActivities = ReturnType<typeof createGeneratorActivities>;
