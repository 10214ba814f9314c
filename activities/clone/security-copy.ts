import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { FunctionCopier } from './routines';

/**
 * Row filters and column masks. Unlike other metadata, a failure here fails the table: a copy of a masked
 * table without its mask would expose what the mask hides. The functions they use are created first.
 * With copy_security false, filters and masks the copy carried over are removed, as asked.
 */
export async function copySecurity(
  src: Workspace,
  dst: Workspace,
  from: TableRef,
  to: TableRef,
  enabled: boolean,
  functions: FunctionCopier,
): Promise<void> {
  const [haveFilter, haveMasks, filter, masks] = await Promise.all([
    dst.getRowFilter(to),
    dst.getColumnMasks(to),
    enabled ? src.getRowFilter(from) : null,
    enabled ? src.getColumnMasks(from) : [],
  ]);
  if (!enabled) {
    if (haveFilter) await dst.dropRowFilter(to);
    for (const m of haveMasks) await dst.dropColumnMask(to, m.column);
    return;
  }
  if (filter) {
    const functionName = functions.destName(filter.functionName);
    await functions.ensure(functionName);
    const same =
      haveFilter && haveFilter.functionName === functionName && haveFilter.columns.join() === filter.columns.join();
    if (!same) await dst.setRowFilter(to, { functionName, columns: filter.columns });
  } else if (haveFilter) {
    await dst.dropRowFilter(to);
  }
  const have = new Map(haveMasks.map((m) => [m.column, m]));
  for (const m of masks) {
    const functionName = functions.destName(m.functionName);
    await functions.ensure(functionName);
    const current = have.get(m.column);
    const same =
      current && current.functionName === functionName && current.usingColumns.join() === m.usingColumns.join();
    if (!same) await dst.setColumnMask(to, { column: m.column, functionName, usingColumns: m.usingColumns });
  }
  for (const m of haveMasks) if (!masks.some((x) => x.column === m.column)) await dst.dropColumnMask(to, m.column);
}
