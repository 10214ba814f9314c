import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { uiState } from '../../state/ui-state';
import { CatalogPicker } from '../clone/CatalogPicker';
import { DiffView } from './DiffView';
import { IncrementalSync } from './IncrementalSync';
import { SampleCompare } from './SampleCompare';
import { CallError, fieldErrors } from './ui';

interface Pair {
  source: string;
  dest: string;
  checksum: boolean;
}

/**
 * /compare — two catalogs side by side: what exists on one side only and column drift (POST /api/diff), per-table
 * row counts, checksums and properties (POST /api/compare), a table's rows side by side with differing cells
 * marked (POST /api/sample/compare), and the incremental sync of a schema (check, then sync as a job).
 */
export function ComparePage() {
  const { api } = useConsole();
  const [pair, setPair] = useState<Pair>(
    () => uiState.load<Pair>('compare.pair') ?? { source: '', dest: '', checksum: false },
  );
  useEffect(() => uiState.save('compare.pair', pair), [pair]);
  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const names = catalogs.data?.catalogs.map((c) => c.name) ?? [];
  const run = useMutation({
    mutationFn: async (p: Pair) => {
      const body = { source_catalog: p.source, destination_catalog: p.dest };
      const [diff, compare] = await Promise.all([
        unwrap(api.client.POST('/api/diff', { body })),
        unwrap(api.client.POST('/api/compare', { body: { ...body, checksum: p.checksum } })),
      ]);
      return { diff, compare, pair: p };
    },
  });
  const errs = fieldErrors(run.error);
  const done = run.data;
  return (
    <section aria-labelledby="compare-title">
      <h1 id="compare-title">Compare catalogs</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate(pair);
        }}
      >
        <div className="row-actions">
          <CatalogPicker
            name="source_catalog"
            label="Source catalog"
            catalogs={names}
            value={pair.source}
            error={errs.source_catalog}
            onChange={(v) => setPair((p) => ({ ...p, source: v }))}
          />
          <CatalogPicker
            name="destination_catalog"
            label="Destination catalog"
            catalogs={names}
            value={pair.dest}
            error={errs.destination_catalog}
            onChange={(v) => setPair((p) => ({ ...p, dest: v }))}
          />
        </div>
        <label className="field checkbox">
          <input
            type="checkbox"
            checked={pair.checksum}
            onChange={(e) => setPair((p) => ({ ...p, checksum: e.target.checked }))}
          />
          Compare checksums too (reads every row)
        </label>
        <button type="submit" disabled={run.isPending}>
          {run.isPending ? 'Comparing…' : 'Compare'}
        </button>
      </form>
      <CallError error={run.error} fields={['source_catalog', 'destination_catalog']} />
      {done && <DiffView diff={done.diff} compare={done.compare} />}
      {done && <SampleCompare source={done.pair.source} dest={done.pair.dest} tables={done.compare.tables} />}
      {done && <IncrementalSync source={done.pair.source} dest={done.pair.dest} />}
    </section>
  );
}
