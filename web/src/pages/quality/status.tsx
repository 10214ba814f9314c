import { NavLink } from 'react-router';
import { useConsole } from '../../shell/context';

/** A percentage as the API gives it (0–100), one decimal. */
export const pct = (v: number) => `${Math.round(v * 10) / 10} %`;

/** A pass rate in words with a symbol: never colour alone. 100 % passes, 95 % and up is a warning, below fails. */
export function PassRate({ rate, status }: { rate: number; status?: string }) {
  if (status === 'failed') {
    return (
      <span data-status="failed">
        <span aria-hidden="true">✕</span> run failed
      </span>
    );
  }
  const level = rate >= 100 ? 'passed' : rate >= 95 ? 'warning' : 'failing';
  const symbol = level === 'passed' ? '✓' : level === 'warning' ? '⚠' : '✕';
  return (
    <span data-status={level}>
      <span aria-hidden="true">{symbol}</span> {pct(rate)} {level === 'passed' ? 'passed' : 'pass rate'}
    </span>
  );
}

/** A status word with its symbol (severity, anomaly status, contract and term status, compliance). */
const SYMBOL: Record<string, string> = {
  critical: '✕',
  warning: '⚠',
  warn: '⚠',
  error: '✕',
  info: 'ℹ',
  open: '●',
  acknowledged: '◐',
  resolved: '✓',
  false_positive: '⊘',
  passed: '✓',
  failed: '✕',
  met: '✓',
  partial: '◐',
  gap: '✕',
  draft: '✎',
  approved: '✓',
  active: '✓',
  deprecated: '⊘',
  archived: '⊘',
  enabled: '✓',
  disabled: '⊘',
  fresh: '✓',
  stale: '⚠',
  none: '✕',
  deny: '⛔',
  allow: '✓',
};

export function Status({ value }: { value: string }) {
  return (
    <span data-status={value}>
      <span aria-hidden="true">{SYMBOL[value] ?? '•'}</span> {value.replace(/_/g, ' ')}
    </span>
  );
}

const SECTIONS = [
  ['quality', '/quality', 'Overview'],
  ['quality-checks', '/quality/checks', 'Checks'],
  ['quality-runs', '/quality/runs', 'Runs'],
  ['quality-coverage', '/quality/coverage', 'Coverage'],
  ['quality-profiles', '/quality/profiles', 'Profiles'],
  ['quality-anomalies', '/quality/anomalies', 'Anomalies'],
] as const;

/** The data-quality pages' own navigation (the ones the server supports). */
export function QualityNav() {
  const { pages } = useConsole();
  const have = new Set(pages.map((p) => p.id));
  return (
    <nav aria-label="Data quality" className="subnav">
      <ul className="row-actions" style={{ listStyle: 'none', paddingLeft: 0 }}>
        {SECTIONS.filter(([id]) => have.has(id)).map(([id, to, label]) => (
          <li key={id}>
            <NavLink to={to} end style={({ isActive }) => (isActive ? { fontWeight: 'bold' } : undefined)}>
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
