import { z } from 'zod';
import { AiSpendSchema, AI_SOURCES, TEMPLATE_REASONS } from './ai';

/** Live capture of photos and video into a volume and a Delta table (`/api/capture`). */

const name = z.string().min(1).max(255);

export const CaptureTargetSchema = z.object({
  catalog: name,
  schema: name,
  volume: name.default('demo_unstructured'),
  table_name: name.default('demo_capture_catalog'),
});

export const CaptureInitRequestSchema = CaptureTargetSchema.strict();

export const CaptureInitResponseSchema = z.object({
  volume: z.string().meta({ description: 'catalog.schema.volume' }),
  table: z.string().meta({ description: 'catalog.schema.table' }),
  created_volume: z.boolean(),
  created_table: z.boolean(),
  added_columns: z.array(z.string()).meta({ description: 'Columns an older table gained (one ADD COLUMNS)' }),
});

/** The multipart form fields of POST /api/capture/frame (the file is the `file` part). */
export const CaptureFrameFieldsSchema = CaptureTargetSchema.extend({
  capture_type: z.enum(['photo', 'video']),
  session_id: z.string().min(1).max(255).optional(),
  description_style: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'strict (default) or permissive; any other value is stored as strict' }),
  industry: z.string().min(1).max(100).optional(),
  ai_token_budget: z.coerce.number().int().min(0).max(10_000_000).default(50_000),
  max_tokens: z.coerce.number().int().min(1).max(32_768).default(1_024),
});
export type CaptureFrameFields = z.infer<typeof CaptureFrameFieldsSchema>;

/** The form as OpenAPI shows it: the fields plus the binary `file`. */
export const CaptureFrameFormSchema = CaptureFrameFieldsSchema.extend({
  file: z
    .string()
    .meta({ format: 'binary', description: 'The photo or video (≤ 25 MB); its kind is read from its bytes' }),
});

const AiFieldsSchema = z.object({
  caption: z.string(),
  alt_text: z.string(),
  summary: z.string(),
  tags: z.string(),
  detected_text: z.string(),
  scene_category: z.string(),
});

export const CaptureFrameResponseSchema = AiFieldsSchema.extend({
  capture_id: z.string(),
  capture_type: z.enum(['photo', 'video']),
  file_path: z.string().meta({ description: '/Volumes/<catalog>/<schema>/<volume>/capture/<type>/…' }),
  mime_type: z.string(),
  file_extension: z.string(),
  size_bytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  session_id: z.string().nullable(),
  submitted_by: z.string().nullable(),
  description_style: z.enum(['strict', 'permissive']),
  source: z.enum(AI_SOURCES),
  reason: z.enum(TEMPLATE_REASONS).optional(),
  ai: AiSpendSchema,
  usage_id: z.string(),
});

export const CaptureRecentQuerySchema = CaptureTargetSchema.extend({
  session_id: z.string().min(1).max(255).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const CaptureRecentResponseSchema = z.object({
  captures: z.array(z.record(z.string(), z.unknown())).meta({
    description: 'Newest first; every capture column except content',
  }),
});
