import { InvalidInputError } from '../../errors';
import type {
  Action,
  AddAction,
  CommitInfoAction,
  MetaDataAction,
  ProtocolAction,
  RemoveAction,
  TxnAction,
} from './actions';

/** The reconciled table at one version (PROTOCOL.md "Action Reconciliation"). */
export interface TableState {
  version: number;
  protocol: ProtocolAction;
  metadata: MetaDataAction;
  /** Live files by log path. */
  files: Map<string, AddAction>;
  /** Tombstones by log path (only those replayed since the checkpoint, or kept in it). */
  tombstones: Map<string, RemoveAction>;
  txns: Map<string, TxnAction>;
}

export function emptyState(): Omit<TableState, 'protocol' | 'metadata'> &
  Partial<Pick<TableState, 'protocol' | 'metadata'>> {
  return { version: -1, files: new Map(), tombstones: new Map(), txns: new Map() };
}

export function cloneState(s: TableState): TableState {
  return { ...s, files: new Map(s.files), tombstones: new Map(s.tombstones), txns: new Map(s.txns) };
}

type Building = ReturnType<typeof emptyState>;

/** Applies one commit's (or checkpoint's) actions in order; the newest action per path wins. */
export function applyActions(state: Building, actions: Action[]): void {
  for (const a of actions) {
    if (a.protocol) state.protocol = a.protocol;
    if (a.metaData) state.metadata = a.metaData;
    if (a.txn) state.txns.set(a.txn.appId, a.txn);
    if (a.add) {
      state.files.set(a.add.path, a.add);
      state.tombstones.delete(a.add.path);
    }
    if (a.remove) {
      state.files.delete(a.remove.path);
      state.tombstones.set(a.remove.path, a.remove);
    }
  }
}

export function finishState(state: Building, version: number, tableDir: string): TableState {
  if (!state.protocol || !state.metadata) {
    throw new InvalidInputError(`Delta log of ${tableDir} has no protocol/metaData up to version ${version}`);
  }
  state.version = version;
  return state as TableState;
}

export function commitInfoOf(actions: Action[]): CommitInfoAction | null {
  return actions.find((a) => a.commitInfo)?.commitInfo ?? null;
}
