/**
 * The six AI fields of a capture: from a template when no model answers, else the model's JSON clipped to the
 * limits (caption ≤ 14 words, alt_text ≤ 18, summary 2–3 sentences, tags 5–8, scene_category 1–2 words).
 */

export interface CaptureFields {
  caption: string;
  alt_text: string;
  summary: string;
  tags: string;
  detected_text: string;
  scene_category: string;
}

export interface CaptureFacts {
  captureType: 'photo' | 'video';
  extension: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  sessionId: string | null;
}

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);
export const clipWords = (s: string, max: number) => words(s).slice(0, max).join(' ');

function sentences(s: string): string[] {
  return (
    s
      .replace(/\s+/g, ' ')
      .trim()
      .match(/[^.!?]+[.!?]+|[^.!?]+$/g) ?? []
  )
    .map((x) => x.trim())
    .filter(Boolean);
}

function orientation(f: CaptureFacts): string {
  if (!f.width || !f.height) return 'unknown-size';
  return f.width > f.height ? 'landscape' : f.width < f.height ? 'portrait' : 'square';
}

const kb = (n: number) => (n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`);

/** Deterministic fields from what the file itself says (type, size, dimensions, session). */
export function templateFields(f: CaptureFacts): CaptureFields {
  const fmt = f.extension.toUpperCase();
  const dims = f.width && f.height ? `${f.width} × ${f.height} ` : '';
  const session = f.sessionId ? ` in session ${f.sessionId}` : '';
  const kind = f.captureType;
  return {
    caption: clipWords(`Live ${kind} capture${session}, ${dims}${fmt}`, 14),
    alt_text: clipWords(`A ${dims}${fmt} ${kind} captured live${session}; its content has not been described`, 18),
    summary:
      `A ${kind} was captured live${session} and stored as ${dims}${fmt} of ${kb(f.sizeBytes)}. ` +
      'No model described its content, so this text comes from the file itself.',
    tags: ['capture', kind, f.extension.toLowerCase(), orientation(f), 'undescribed'].join(', '),
    detected_text: '',
    scene_category: 'live capture',
  };
}

/**
 * A model's fields held to the limits; a part it left out or broke comes from the template (tags are padded
 * from it to at least five).
 */
export function clipFields(m: Partial<Record<keyof CaptureFields, unknown>>, fallback: CaptureFields): CaptureFields {
  const text = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');
  const caption = clipWords(text(m.caption), 14) || fallback.caption;
  const alt = clipWords(text(m.alt_text), 18) || fallback.alt_text;
  let summary = sentences(text(m.summary)).slice(0, 3);
  if (summary.length < 2) summary = sentences(fallback.summary).slice(0, Math.max(2, summary.length));
  const rawTags = Array.isArray(m.tags) ? m.tags.map(text) : text(m.tags).split(',');
  const tags = [...new Set(rawTags.map((t) => t.trim().toLowerCase()).filter(Boolean))].slice(0, 8);
  for (const t of fallback.tags.split(', ')) if (tags.length < 5 && !tags.includes(t)) tags.push(t);
  return {
    caption,
    alt_text: alt,
    summary: summary.join(' '),
    tags: tags.join(', '),
    detected_text: text(m.detected_text),
    scene_category: clipWords(text(m.scene_category), 2) || fallback.scene_category,
  };
}

/** The system prompt of the one multimodal call per photo. */
export function capturePrompt(style: 'strict' | 'permissive'): string {
  const base =
    'Describe this photo as JSON with the keys caption (at most 14 words), alt_text (at most 18 words), summary ' +
    '(2 to 3 sentences), tags (5 to 8 comma-separated words), detected_text (text visible in the image, empty if ' +
    'none) and scene_category (1 to 2 words). Answer with the JSON object only.';
  return style === 'strict'
    ? `${base} Describe only what is visible; never infer a person's identity, age, gender, ethnicity, health or emotions.`
    : `${base} You may describe people's apparent expressions and activities, but never guess their identity.`;
}
