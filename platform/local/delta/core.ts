import { InvalidInputError } from '../../errors';
import type { MetaDataAction, ProtocolAction } from './actions';
import type { DeltaField } from './contract';
import { fromSchemaString } from './schema';
import type { LogReader } from './snapshot';
import type { TableState } from './state';

/** What every operation needs: the folder and its (caching) log reader. */
export interface Core {
  dir: string;
  reader: LogReader;
}

export function schemaOf(metadata: MetaDataAction): DeltaField[] {
  return fromSchemaString(metadata.schemaString);
}

export function cdfEnabled(metadata: MetaDataAction): boolean {
  return metadata.configuration['delta.enableChangeDataFeed']?.toLowerCase() === 'true';
}

/** Honours `delta.appendOnly` (a writer-version-2 obligation). */
export function assertNotAppendOnly(state: TableState, operation: string): void {
  if (state.metadata.configuration['delta.appendOnly']?.toLowerCase() === 'true') {
    throw new InvalidInputError(`${operation} is not allowed: table has delta.appendOnly=true`);
  }
}

/**
 * The smallest protocol the table needs: reader 1 / writer 2, writer 4 for change data feed, and table
 * features (reader 3 / writer 7) only for timestamp_ntz columns. Never lower than `current`.
 */
export function protocolFor(
  schema: DeltaField[],
  configuration: Record<string, string>,
  current?: ProtocolAction,
): ProtocolAction {
  const cdf = configuration['delta.enableChangeDataFeed']?.toLowerCase() === 'true';
  const ntz = schema.some((f) => /timestamp_ntz/.test(f.type));
  if (ntz || (current && current.minWriterVersion >= 7)) {
    const readerFeatures = new Set(current?.readerFeatures ?? []);
    const writerFeatures = new Set(current?.writerFeatures ?? []);
    if (ntz) {
      readerFeatures.add('timestampNtz');
      writerFeatures.add('timestampNtz');
    }
    if (cdf) writerFeatures.add('changeDataFeed');
    if (configuration['delta.appendOnly']) writerFeatures.add('appendOnly');
    return {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: [...readerFeatures],
      writerFeatures: [...writerFeatures],
    };
  }
  const writer = Math.max(cdf ? 4 : 2, current?.minWriterVersion ?? 2);
  return { minReaderVersion: Math.max(1, current?.minReaderVersion ?? 1), minWriterVersion: writer };
}

export function sameProtocol(a: ProtocolAction, b: ProtocolAction): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
