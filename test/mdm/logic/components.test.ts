import { componentLabels } from '../../../activities/mdm/logic/components';

test('connected components label every record with the smallest uid of its component, whatever the edge order', () => {
  const edges = [
    { a: 'crm:9', b: 'erp:2' },
    { a: 'web:5', b: 'crm:3' },
    { a: 'erp:2', b: 'web:5' },
    { a: 'web:7', b: 'web:8' },
  ];
  const expected = new Map([
    ['crm:9', 'crm:3'],
    ['erp:2', 'crm:3'],
    ['web:5', 'crm:3'],
    ['crm:3', 'crm:3'],
    ['web:7', 'web:7'],
    ['web:8', 'web:7'],
  ]);
  expect(componentLabels(edges)).toEqual(expected);
  expect(componentLabels([...edges].reverse())).toEqual(expected);
  expect(componentLabels([])).toEqual(new Map());
});
