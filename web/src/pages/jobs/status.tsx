/** A job status in words with a symbol (never colour alone). */
const SYMBOL: Record<string, string> = {
  queued: '⏳',
  running: '▶',
  cancelling: '⏹',
  completed: '✓',
  failed: '✕',
  cancelled: '⏹',
  aborted: '✕',
};

export function StatusText({ status }: { status: string }) {
  return (
    <span data-status={status}>
      <span aria-hidden="true">{SYMBOL[status] ?? '•'}</span> {status}
    </span>
  );
}
