import { ident, lit, num } from './sql-text';

type Args = Record<string, unknown>;
/** Databricks ST_* functions (need the engine's spatial support; refused where it is missing). */
const g = (a: Args) => `try_to_geometry(${ident(String(a.column))})`;
const known = (a: Args, cond: string) => `${ident(String(a.column))} IS NOT NULL AND (${g(a)} IS NULL OR ${cond})`;
const type = (name: string) => (a: Args) => known(a, `st_geometrytype(${g(a)}) <> ${lit(name)}`);
const ops: Record<string, string> = { not_less_than: '<', not_greater_than: '>', equal_to: '<>', not_equal_to: '=' };
const refGeom = (a: Args) => `st_geomfromwkt(${lit(String(a.reference_geometry))})`;

export const GEO_ROW: Record<string, (a: Args) => string> = {
  is_geometry: (a) => `${ident(String(a.column))} IS NOT NULL AND ${g(a)} IS NULL`,
  is_geography: (a) =>
    `${ident(String(a.column))} IS NOT NULL AND try_to_geography(${ident(String(a.column))}) IS NULL`,
  is_point: type('ST_Point'),
  is_linestring: type('ST_LineString'),
  is_polygon: type('ST_Polygon'),
  is_multipoint: type('ST_MultiPoint'),
  is_multilinestring: type('ST_MultiLineString'),
  is_multipolygon: type('ST_MultiPolygon'),
  is_geometrycollection: type('ST_GeometryCollection'),
  is_ogc_valid: (a) => known(a, `NOT st_isvalid(${g(a)})`),
  is_non_empty_geometry: (a) => known(a, `st_isempty(${g(a)})`),
  is_not_null_island: (a) => known(a, `st_x(${g(a)}) = 0 AND st_y(${g(a)}) = 0`),
  has_dimension: (a) => known(a, `st_dimension(${g(a)}) <> ${num(Number(a.dimension))}`),
  has_x_coordinate_between: (a) =>
    known(a, `st_xmin(${g(a)}) < ${num(Number(a.min_value))} OR st_xmax(${g(a)}) > ${num(Number(a.max_value))}`),
  has_y_coordinate_between: (a) =>
    known(a, `st_ymin(${g(a)}) < ${num(Number(a.min_value))} OR st_ymax(${g(a)}) > ${num(Number(a.max_value))}`),
  ...Object.fromEntries(
    Object.entries(ops).flatMap(([op, sql]) => [
      [`is_area_${op}`, (a: Args) => known(a, `st_area(${g(a)}) ${sql} ${num(Number(a.value))}`)],
      [`is_num_points_${op}`, (a: Args) => known(a, `st_npoints(${g(a)}) ${sql} ${num(Number(a.value))}`)],
    ]),
  ),
  is_geo_contains: (a) => known(a, `NOT st_contains(${g(a)}, ${refGeom(a)})`),
  is_geo_touches: (a) => known(a, `NOT st_touches(${g(a)}, ${refGeom(a)})`),
  is_geo_within: (a) => known(a, `NOT st_within(${g(a)}, ${refGeom(a)})`),
  is_geo_covers: (a) => known(a, `NOT st_covers(${g(a)}, ${refGeom(a)})`),
  is_geo_intersects: (a) => known(a, `NOT st_intersects(${g(a)}, ${refGeom(a)})`),
};
