import { transferTable } from '../activities/clone/table-transfer';
import { openWorkspace } from '../platform';
import { applyCloneDefaults, type CloneRequestInput } from '../schemas/clone';
import { median, pool, timed, type BenchEnv, type Progress } from './clone-bench-env';

export const WORKERS = 4;
export const PARALLEL_TABLES = 4;

/**
 * Shallow clone of a `tables`-table catalog through the workflows, against the same per-table port calls
 * (clone + metadata) in a plain loop at the same parallelism; paired rounds, alternating which side goes first.
 */
export async function shallowBench(b: BenchEnv, tables: number, rounds: number, progress: Progress) {
  const root = b.tmp('lw-bench-shallow-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  const refs: { schema: string; name: string }[] = [];
  for (let s = 0; s < WORKERS; s++) {
    const schema = `s${s}`;
    await ws.createSchema({ catalog: 'bench', name: schema });
    for (let t = 0; t < tables / WORKERS; t++) refs.push({ schema, name: `t${t}` });
  }
  await pool(refs, 4, (r) =>
    ws.createTableAs({ ref: { catalog: 'bench', ...r }, query: `SELECT ${refs.indexOf(r)} AS k, 'x' AS v` }),
  );
  const fresh = async (catalog: string) => {
    await ws.createCatalog({ name: catalog });
    for (let s = 0; s < WORKERS; s++) await ws.createSchema({ catalog, name: `s${s}` });
  };
  await fresh('clone_only');
  const cloneOnlySeconds = await timed(() =>
    pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
      ws.cloneTable({
        source: { catalog: 'bench', ...r },
        target: { catalog: 'clone_only', ...r },
        cloneType: 'SHALLOW',
      }),
    ),
  );
  const plain: number[] = [];
  const engine: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // The same port calls the engine makes per table (clone, then metadata, filters and masks), in a plain loop.
    const baselineCatalog = `plain_${round}`;
    await fresh(baselineCatalog);
    const options = applyCloneDefaults({
      source_catalog: 'bench',
      destination_catalog: baselineCatalog,
      clone_type: 'SHALLOW',
    } as CloneRequestInput);
    const ctx = {
      jobId: 'baseline',
      options,
      source: { kind: 'local' as const, root },
      target: { label: 'local', workspace: { kind: 'local' as const, root }, destinationCatalog: baselineCatalog },
      crossWorkspace: false,
    };
    const plainOnce = () =>
      timed(() =>
        pool(refs, WORKERS * PARALLEL_TABLES, (r) =>
          transferTable(ws, ws, ctx, r.schema, r.name, async () => undefined, false),
        ),
      );
    const engineOnce = () =>
      b.clone(root, {
        destination_catalog: `bench_copy_${round}`,
        clone_type: 'SHALLOW',
        max_workers: WORKERS,
        parallel_tables: PARALLEL_TABLES,
      });
    // Alternate which side goes first (see the deep part).
    let plainSeconds: number;
    let run: Awaited<ReturnType<typeof engineOnce>>;
    if (round % 2 === 0) {
      plainSeconds = await plainOnce();
      run = await engineOnce();
    } else {
      run = await engineOnce();
      plainSeconds = await plainOnce();
    }
    if (run.summary.tables_cloned !== tables)
      throw new Error(`engine cloned ${run.summary.tables_cloned} of ${tables} tables`);
    plain.push(tables / plainSeconds);
    engine.push(tables / run.seconds);
    ratios.push(plainSeconds / run.seconds);
    progress(
      `shallow round ${round + 1} of ${rounds}: engine ${run.seconds.toFixed(1)} s, plain loop ${plainSeconds.toFixed(1)} s, ratio ${ratios[round].toFixed(2)}`,
    );
  }
  return {
    engineTablesPerSecond: median(engine),
    plainTablesPerSecond: median(plain),
    cloneOnlyTablesPerSecond: tables / cloneOnlySeconds,
    shallowVsPlain: median(ratios),
    shallowRatios: ratios,
  };
}
