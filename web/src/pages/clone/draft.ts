/** The wizard's draft as kept in the UI-state store (30 minutes). */
export interface CloneDraft {
  step: number;
  template: string;
  texts: Record<string, string | boolean>;
  edited: string[];
}

export const emptyDraft: CloneDraft = { step: 0, template: '', texts: {}, edited: [] };
export const DRAFT_KEY = 'clone.draft';
