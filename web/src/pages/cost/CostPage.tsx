import { Budgets } from './Budgets';
import { Recommendations } from './Recommendations';
import { Spend } from './Spend';
import { Warehouses } from './Warehouses';

/** /cost — spend per day or warehouse (chart and table), warehouses, budgets (kept and evaluated by the server) and cost recommendations. */
export function CostPage() {
  return (
    <section aria-labelledby="cost-title">
      <h1 id="cost-title">Cost</h1>
      <Spend />
      <Warehouses />
      <Budgets />
      <Recommendations />
    </section>
  );
}
