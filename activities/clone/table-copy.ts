import type { Workspace } from '../../platform/port';
import type { TableDescription } from '../../platform/types';
import { qRef, timeTravelText } from './sql-text';
import type { TableCopyPlan } from './table-plan';

export interface CopyOutcome {
  bytesCopied: number;
  filesCopied: number;
}

/** Rows per insert when copying across workspaces (each insert is one commit on the target). */
const CROSS_COPY_BATCH = 50_000;

/** Executes a table plan through the platform port. Every method replaces the destination table. */
export async function executeCopy(
  plan: TableCopyPlan,
  src: Workspace,
  dst: Workspace,
  desc: TableDescription,
): Promise<CopyOutcome> {
  const at = plan.at ?? {};
  if (plan.method === 'clone') {
    const m = await dst.cloneTable({
      source: plan.source,
      target: plan.target,
      cloneType: plan.cloneType,
      properties: plan.properties,
      replace: true,
      ...at,
    });
    return { bytesCopied: m.copiedFilesSize, filesCopied: m.numCopiedFiles };
  }
  if (plan.method === 'select-copy') {
    const m = await dst.copyTable({
      source: plan.source,
      target: plan.target,
      where: plan.where,
      properties: plan.properties,
      ...at,
    });
    return { bytesCopied: m.bytes, filesCopied: m.numFiles };
  }
  const select = `SELECT * FROM ${qRef(plan.source)}${timeTravelText(plan.at)}${plan.where !== undefined ? ` WHERE ${plan.where}` : ''}`;
  await dst.dropTable(plan.target, { ifExists: true });
  await dst.createTable({
    ref: plan.target,
    columns: desc.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, comment: c.comment })),
    format: plan.method === 'iceberg-ctas' ? 'ICEBERG' : undefined,
    partitionColumns: desc.partitionColumns,
    properties: plan.properties,
    comment: desc.comment,
  });
  if (plan.method === 'iceberg-ctas') {
    await dst.insertQuery(plan.target, select);
  } else {
    // Across workspaces the target cannot read the source's files: rows travel through this worker.
    const { rows } = await src.query(select);
    for (let i = 0; i < rows.length; i += CROSS_COPY_BATCH)
      await dst.insertRows(plan.target, rows.slice(i, i + CROSS_COPY_BATCH));
  }
  const detail = await dst.tableDetail(plan.target);
  return { bytesCopied: detail.sizeInBytes, filesCopied: detail.numFiles };
}
