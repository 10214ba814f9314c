/** Delta log actions as they appear in commit files (PROTOCOL.md "Actions"). */

export interface ProtocolAction {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures?: string[];
  writerFeatures?: string[];
}

export interface MetaDataAction {
  id: string;
  name?: string | null;
  description?: string | null;
  format: { provider: string; options: Record<string, string> };
  schemaString: string;
  partitionColumns: string[];
  configuration: Record<string, string>;
  createdTime?: number | null;
}

export interface AddAction {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  modificationTime: number;
  dataChange: boolean;
  stats?: string | null;
  tags?: Record<string, string> | null;
}

export interface RemoveAction {
  path: string;
  deletionTimestamp?: number | null;
  dataChange: boolean;
  extendedFileMetadata?: boolean;
  partitionValues?: Record<string, string | null> | null;
  size?: number | null;
}

export interface CdcAction {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  dataChange: boolean;
}

export interface CommitInfoAction {
  timestamp: number;
  operation: string;
  operationParameters: Record<string, unknown>;
  operationMetrics?: Record<string, unknown>;
  userName?: string;
  readVersion?: number;
  isBlindAppend?: boolean;
  engineInfo?: string;
  [key: string]: unknown;
}

export interface TxnAction {
  appId: string;
  version: number;
  lastUpdated?: number;
}

export interface Action {
  protocol?: ProtocolAction;
  metaData?: MetaDataAction;
  add?: AddAction;
  remove?: RemoveAction;
  cdc?: CdcAction;
  commitInfo?: CommitInfoAction;
  txn?: TxnAction;
}

/** A remove for a live file: a tombstone that keeps size and partition values (vacuum and CDF use them). */
export function removeOf(add: AddAction, now: number, dataChange = true): RemoveAction {
  return {
    path: add.path,
    deletionTimestamp: now,
    dataChange,
    extendedFileMetadata: true,
    partitionValues: add.partitionValues,
    size: add.size,
  };
}

/** numRecords from an add's stats JSON, when present. */
export function numRecordsOf(add: AddAction): number | null {
  if (!add.stats) return null;
  try {
    const n = (JSON.parse(add.stats) as { numRecords?: number }).numRecords;
    return typeof n === 'number' ? n : null;
  } catch {
    return null;
  }
}
