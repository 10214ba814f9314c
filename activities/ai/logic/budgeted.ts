/**
 * One budgeted model call, the same for every AI-using route and job: reserve the call's full max_tokens first
 * (no call when the budget says no), make the call, record its outcome; the template answers whenever no model
 * answered. I/O is passed in (store and model client), so this stays free of it.
 */

export type TemplateReason = 'no_model' | 'disabled' | 'budget' | 'model_error';

export interface BudgetedIo<T> {
  /** Whether a model is configured at all (else the template answers with reason `no_model`). */
  hasModel: boolean;
  reserve(maxTokens: number): Promise<{ granted: boolean; reason?: 'disabled' | 'budget' }>;
  call(): Promise<T>;
  record(ok: boolean): Promise<void>;
  template(): T;
}

export type BudgetedResult<T> = { value: T; fromModel: true } | { value: T; fromModel: false; reason: TemplateReason };

export async function budgetedCall<T>(io: BudgetedIo<T>, maxTokens: number): Promise<BudgetedResult<T>> {
  if (!io.hasModel) return { value: io.template(), fromModel: false, reason: 'no_model' };
  const r = await io.reserve(maxTokens);
  if (!r.granted) return { value: io.template(), fromModel: false, reason: r.reason ?? 'budget' };
  let value: T;
  try {
    value = await io.call();
  } catch {
    await io.record(false);
    return { value: io.template(), fromModel: false, reason: 'model_error' };
  }
  await io.record(true);
  return { value, fromModel: true };
}
