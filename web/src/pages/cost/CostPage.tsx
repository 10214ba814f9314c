import { Budgets } from './Budgets';
import { Recommendations } from './Recommendations';
import { Warehouses } from './Warehouses';

/** /cost — warehouses, budgets (kept and evaluated by the server) and cost recommendations. */
export function CostPage() {
  return (
    <section aria-labelledby="cost-title">
      <h1 id="cost-title">Cost</h1>
      <Warehouses />
      <Budgets />
      <Recommendations />
    </section>
  );
}
