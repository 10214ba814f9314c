import { Pipelines } from './Pipelines';
import { Playbooks } from './Playbooks';

/** /automation — playbooks (event-triggered actions) and pipelines (ordered steps run as jobs). */
export function AutomationPage() {
  return (
    <section aria-labelledby="automation-title">
      <h1 id="automation-title">Automation</h1>
      <Pipelines />
      <Playbooks />
    </section>
  );
}
