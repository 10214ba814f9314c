/**
 * The AI token budget rules shared by every AI-using route and job (summaries, capture, generators). Pure: the store
 * applies the same rule atomically in `store/ai/usage.ts` (`reserveTokens`).
 */

/** Tokens a request or job may spend when it names no budget. */
export const DEFAULT_AI_TOKEN_BUDGET = 50_000;
/** The largest budget a request may ask for. */
export const MAX_AI_TOKEN_BUDGET = 10_000_000;
/** max_tokens of one model call when the request names none. */
export const DEFAULT_MAX_TOKENS = 1_024;

export type BudgetDecision = { ok: true; remaining: number } | { ok: false; reason: 'disabled' | 'budget' };

/** Tokens still available. */
export function remainingTokens(budget: number, charged: number): number {
  return Math.max(0, budget - charged);
}

/**
 * Whether a call of `maxTokens` may be made: a budget of 0 disables AI; a call needs its full max_tokens still
 * available (it is charged in full whatever it returns), so the budget is never overshot.
 */
export function decideReservation(budget: number, charged: number, maxTokens: number): BudgetDecision {
  if (budget <= 0) return { ok: false, reason: 'disabled' };
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) throw new RangeError('max_tokens must be a positive integer');
  const left = remainingTokens(budget, charged);
  if (left < maxTokens) return { ok: false, reason: 'budget' };
  return { ok: true, remaining: left - maxTokens };
}

/** A budget value from a request: undefined → the default; otherwise an integer 0–10,000,000 (else a message). */
export function checkBudget(value: number | undefined): { ok: true; budget: number } | { ok: false; message: string } {
  if (value === undefined) return { ok: true, budget: DEFAULT_AI_TOKEN_BUDGET };
  if (!Number.isInteger(value) || value < 0 || value > MAX_AI_TOKEN_BUDGET) {
    return { ok: false, message: `ai_token_budget must be an integer from 0 to ${MAX_AI_TOKEN_BUDGET}` };
  }
  return { ok: true, budget: value };
}
