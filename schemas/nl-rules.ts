import { z } from 'zod';

/** /api/nl-rules: plain-English rules to DQX checks with a fixed grammar (no model). */

const TableFqn = z
  .string()
  .regex(/^[A-Za-z0-9_$-]+\.[A-Za-z0-9_$-]+\.[A-Za-z0-9_$-]+$/, 'catalog.schema.table (letters, digits, _ - $)');
const RuleText = z.string().trim().min(1).max(2000);

export const DqxCheckSchema = z
  .object({
    name: z.string(),
    criticality: z.enum(['error', 'warn']),
    check: z.object({ function: z.string(), arguments: z.record(z.string(), z.unknown()) }),
    filter: z.string().optional(),
  })
  .meta({ id: 'NlDqxCheck' });

export const FromTextBodySchema = z.strictObject({
  text: RuleText,
  table_fqn: TableFqn,
  /** Store the checks as the table's DQ checks (validated by the DQ engine first). */
  save: z.boolean().default(false),
});

export const ParsedRuleSchema = z
  .object({
    /** The first check; `checks` has one per clause ("a and b"). */
    check: DqxCheckSchema,
    checks: z.array(DqxCheckSchema),
    /** 1.0: the grammar reads the whole sentence or refuses it, it never guesses. */
    confidence: z.number(),
    /** The checks as sentences of the grammar (explain of each, joined with "and"). */
    explanation: z.string(),
    saved_check_ids: z.array(z.string()).optional(),
  })
  .meta({ id: 'NlParsedRule' });

export const BatchBodySchema = z.strictObject({
  rules: z.array(RuleText).min(1).max(100),
  table_fqn: TableFqn,
});

export const BatchResultSchema = z.object({
  table_fqn: z.string(),
  parsed: z.number(),
  failed: z.number(),
  results: z.array(
    z.object({
      text: z.string(),
      ok: z.boolean(),
      checks: z.array(DqxCheckSchema).optional(),
      explanation: z.string().optional(),
      confidence: z.number().optional(),
      error: z.string().optional(),
      suggestions: z.array(z.string()).optional(),
    }),
  ),
});

export const ExplainBodySchema = z.strictObject({ rule: DqxCheckSchema });
