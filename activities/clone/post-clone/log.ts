import { Context, log } from '@temporalio/activity';

/**
 * The activity logger when running inside an activity; silent elsewhere (the start-up sweep and API calls
 * reuse these functions and report through their return values instead).
 */
export function safetyLog(level: 'info' | 'warn', message: string, attrs: Record<string, unknown>): void {
  try {
    Context.current();
  } catch {
    return;
  }
  log[level](message, attrs);
}
