import type { Plugin } from '../../schemas/governance';
import { listPluginStates, setPluginState } from '../../store/governance/policies';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';

/** The optional capabilities an admin can switch on or off, with their built-in default. */
export const PLUGINS: { name: string; description: string; enabledByDefault: boolean }[] = [
  {
    name: 'compliance_pdf_reports',
    description: 'PDF dossiers of compliance assessments (POST /api/compliance/reports with format PDF)',
    enabledByDefault: true,
  },
  {
    name: 'document_generators',
    description: 'Generated documents: data contracts from tables, glossary and governance reports',
    enabledByDefault: true,
  },
  {
    name: 'contract_enforcement',
    description: 'POST contract validation failures to the enforcement endpoint named in each contract',
    enabledByDefault: true,
  },
  {
    name: 'ai_features',
    description: 'AI-written descriptions and summaries (needs a model endpoint; off until one is configured)',
    enabledByDefault: false,
  },
];

export async function listPlugins(deps: Pick<AppDeps, 'store'>): Promise<Plugin[]> {
  const states = new Map((await listPluginStates(deps.store.db)).map((s) => [s.name, s]));
  return PLUGINS.map((p) => {
    const s = states.get(p.name);
    return {
      name: p.name,
      description: p.description,
      enabled: s ? s.enabled : p.enabledByDefault,
      updated_by: s?.updatedBy ?? null,
      updated_at: s?.updatedAt.toISOString() ?? null,
    };
  });
}

/** Whether a plugin is on (its stored switch, else its default); other domains ask before they run one. */
export async function isPluginEnabled(deps: Pick<AppDeps, 'store'>, name: string): Promise<boolean> {
  const plugin = (await listPlugins(deps)).find((p) => p.name === name);
  if (!plugin) throw new Error(`unknown plugin ${name}`);
  return plugin.enabled;
}

export async function togglePlugin(deps: Pick<AppDeps, 'store'>, name: string, enabled: boolean, by: string) {
  const known = PLUGINS.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!known) throw notFound(`No plugin ${name}; known plugins: ${PLUGINS.map((p) => p.name).join(', ')}`);
  await setPluginState(deps.store.db, known.name, enabled, by);
  return (await listPlugins(deps)).find((p) => p.name === known.name)!;
}
