import { z } from 'zod';
import { IdentifierSchema, PrintableTextSchema } from './common';

/**
 * Saved target connections (the specification's fields of a saved target): a Databricks workspace other jobs
 * name with `target_workspace: {name}`. Credentials go in, never come out: responses list which are set.
 */
export const TargetNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
  .meta({ example: 'dr-west' });

export const TargetAuthMethodSchema = z.enum(['token', 'service_principal', 'cli_profile']);
export const DataSyncModeSchema = z.enum(['snapshot_once', 'incremental', 'force_full']);

const HttpsUrlSchema = z
  .string()
  .url()
  .refine((v) => /^https:\/\//i.test(v), 'must be an https:// URL')
  .transform((v) => {
    const u = new URL(v);
    return `${u.protocol}//${u.host}`;
  })
  .meta({ example: 'https://adb-1234.5.azuredatabricks.net' });

/** A Databricks SQL warehouse id (letters and digits, as the Databricks adapter requires). */
const WarehouseIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9]+$/, 'a SQL warehouse id: letters and digits only')
  .meta({ example: '1a2b3c4d5e6f7a8b' });

const credentialFields = {
  token: PrintableTextSchema.min(1).optional(),
  client_id: IdentifierSchema.optional(),
  client_secret: PrintableTextSchema.min(1).optional(),
  tenant_id: IdentifierSchema.optional(),
  profile: IdentifierSchema.optional(),
};

const targetFields = {
  host: HttpsUrlSchema,
  auth_method: TargetAuthMethodSchema.default('token'),
  warehouse_id: WarehouseIdSchema,
  data_sync_mode: DataSyncModeSchema.default('snapshot_once'),
  auto_handle_masks: z.boolean().default(false),
  keep_share: z.boolean().default(false),
  ...credentialFields,
};

type CredentialBody = Partial<Record<keyof typeof credentialFields, string>> & { auth_method?: string };

/** Which credentials each auth method needs (checked on create, and on update when credentials are sent). */
export function credentialProblems(b: CredentialBody): { path: string; message: string }[] {
  const need: Record<string, (keyof typeof credentialFields)[]> = {
    token: ['token'],
    service_principal: ['client_id', 'client_secret'],
    cli_profile: ['profile'],
  };
  return (need[b.auth_method ?? 'token'] ?? [])
    .filter((k) => !b[k])
    .map((k) => ({ path: k, message: `required for auth_method ${b.auth_method ?? 'token'}` }));
}

export const TargetCreateSchema = z
  .object({ name: TargetNameSchema, ...targetFields })
  .strict()
  .superRefine((b, ctx) => {
    for (const p of credentialProblems(b)) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
  })
  .meta({ id: 'TargetCreate' });

/** Every field optional; credentials sent replace the saved ones, none sent keeps them. */
export const TargetUpdateSchema = z
  .object({
    host: HttpsUrlSchema.optional(),
    auth_method: TargetAuthMethodSchema.optional(),
    warehouse_id: WarehouseIdSchema.optional(),
    data_sync_mode: DataSyncModeSchema.optional(),
    auto_handle_masks: z.boolean().optional(),
    keep_share: z.boolean().optional(),
    ...credentialFields,
  })
  .strict()
  .meta({ id: 'TargetUpdate' });

export const TargetNameParamsSchema = z.object({ name: TargetNameSchema });

export const TargetSchema = z
  .object({
    name: z.string(),
    host: z.string(),
    auth_method: z.string(),
    warehouse_id: z.string(),
    data_sync_mode: z.string(),
    auto_handle_masks: z.boolean(),
    keep_share: z.boolean(),
    credentials_set: z.array(z.string()).meta({ description: 'which credentials are saved (never their values)' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Target' });

export const WhoAmIRequestSchema = z.object({ name: TargetNameSchema }).strict();
export const WhoAmISchema = z
  .object({
    name: z.string(),
    host: z.string(),
    auth_method: z.string(),
    user_name: z.string(),
    display_name: z.string().nullable(),
  })
  .meta({ id: 'TargetIdentity' });

export type TargetCreate = z.infer<typeof TargetCreateSchema>;
export type TargetUpdate = z.infer<typeof TargetUpdateSchema>;
