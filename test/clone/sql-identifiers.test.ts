import { objectReferences, rewriteCatalogRefs } from '../../activities/clone/logic/sql-identifiers';

describe('catalog references in view and function bodies', () => {
  test('three-part names in the source catalog move to the destination', () => {
    expect(
      rewriteCatalogRefs(
        'SELECT * FROM prod.sales.orders o JOIN `prod`.`sales`.`lines` l ON o.id = l.id',
        'prod',
        'dev',
      ),
    ).toBe('SELECT * FROM dev.sales.orders o JOIN `dev`.`sales`.`lines` l ON o.id = l.id');
  });

  test('a catalog whose name ends with the source name survives (preprod is not prod)', () => {
    const sql = 'SELECT a FROM preprod.x.t UNION ALL SELECT a FROM prod.x.t';
    expect(rewriteCatalogRefs(sql, 'prod', 'dev')).toBe('SELECT a FROM preprod.x.t UNION ALL SELECT a FROM dev.x.t');
  });

  test('string literals, comments, two-part names and column paths are left alone', () => {
    const sql = "SELECT 'prod.x.t' AS s, t.prod, x.prod -- prod.x.t\nFROM x.prod /* prod.a.b */ WHERE v > 1.5";
    expect(rewriteCatalogRefs(sql, 'prod', 'dev')).toBe(sql);
  });

  test('matching is case-insensitive and a destination needing quotes is quoted', () => {
    expect(rewriteCatalogRefs('SELECT * FROM PROD.s.t', 'prod', 'dev-copy')).toBe('SELECT * FROM `dev-copy`.s.t');
    expect(rewriteCatalogRefs('SELECT * FROM prod.s.t', 'prod', 'copy')).toBe('SELECT * FROM `copy`.s.t');
  });

  test('function calls are found and marked as calls', () => {
    const refs = objectReferences('SELECT prod.sec.mask(ssn) FROM prod.s.v');
    expect(refs).toEqual(
      expect.arrayContaining([
        { catalog: 'prod', schema: 'sec', name: 'mask', isCall: true },
        { catalog: 'prod', schema: 's', name: 'v', isCall: false },
      ]),
    );
  });
});
