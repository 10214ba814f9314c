import { allCases } from './golden-cases';

describe('Databricks statement builders produce exactly the documented SQL', () => {
  it('has unique case names', () => {
    const names = allCases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(allCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(c.build()).toBe(c.expected);
  });
});
