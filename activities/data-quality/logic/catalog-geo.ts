import { spec, type Spec } from './catalog-spec';

const COL = ['column!:column'];
const geo = (name: string, description: string, args: string[] = COL, level: 'row' | 'dataset' = 'row'): Spec =>
  spec(name, 'geo', level, description, args, ['spatial']);
const REF_GEOM = ['column!:column', 'reference_geometry!:string - WKT', 'convert_to_geometry:boolean'];

/** DQX geo functions. Latitude/longitude are plain numbers; the rest need the engine's ST_* functions. */
export const GEO_FUNCTIONS: Spec[] = [
  spec('is_latitude', 'geo', 'row', 'Value is a number between -90 and 90', COL),
  spec('is_longitude', 'geo', 'row', 'Value is a number between -180 and 180', COL),
  geo('is_geometry', 'Value parses as a geometry'),
  geo('is_geography', 'Value parses as a geography'),
  geo('is_point', 'Geometry is a point'),
  geo('is_linestring', 'Geometry is a linestring'),
  geo('is_polygon', 'Geometry is a polygon'),
  geo('is_multipoint', 'Geometry is a multipoint'),
  geo('is_multilinestring', 'Geometry is a multilinestring'),
  geo('is_multipolygon', 'Geometry is a multipolygon'),
  geo('is_geometrycollection', 'Geometry is a geometry collection'),
  geo('is_ogc_valid', 'Geometry is OGC valid'),
  geo('is_non_empty_geometry', 'Geometry is not empty'),
  geo('is_not_null_island', 'Point is not (0, 0)'),
  geo('has_dimension', 'Geometry has the dimension', ['column!:column', 'dimension!:integer']),
  geo('has_x_coordinate_between', 'X between min and max', [
    'column!:column',
    'min_value!:number',
    'max_value!:number',
  ]),
  geo('has_y_coordinate_between', 'Y between min and max', [
    'column!:column',
    'min_value!:number',
    'max_value!:number',
  ]),
  ...['not_less_than', 'not_greater_than', 'equal_to', 'not_equal_to'].map((op) =>
    geo(`is_area_${op}`, `Area ${op.replace(/_/g, ' ')} value`, [
      'column!:column',
      'value!:number',
      'srid:integer',
      'geodesic:boolean',
    ]),
  ),
  ...['not_less_than', 'not_greater_than', 'equal_to', 'not_equal_to'].map((op) =>
    geo(`is_num_points_${op}`, `Point count ${op.replace(/_/g, ' ')} value`, ['column!:column', 'value!:integer']),
  ),
  geo('are_polygons_mutually_disjoint', 'No two polygons overlap', COL, 'dataset'),
  geo('is_geo_contains', 'Geometry contains the reference', REF_GEOM),
  geo('is_geo_touches', 'Geometry touches the reference', REF_GEOM),
  geo('is_geo_within', 'Geometry is within the reference', REF_GEOM),
  geo('is_geo_covers', 'Geometry covers the reference', [...REF_GEOM, 'precise:boolean', 'resolution:integer']),
  geo('is_geo_intersects', 'Geometry intersects the reference', [...REF_GEOM, 'precise:boolean', 'resolution:integer']),
];
