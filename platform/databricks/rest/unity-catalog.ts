import type { SecurableType } from '../../types';
import type { RestClient } from './http';

/** Unity Catalog REST (api/2.1/unity-catalog). Shapes are the documented response fields we use. */
export interface UcCatalog {
  name: string;
  owner?: string;
  comment?: string;
  storage_root?: string;
  properties?: Record<string, string>;
  created_at?: number;
}
export interface UcSchema {
  catalog_name: string;
  name: string;
  full_name?: string;
  owner?: string;
  comment?: string;
  properties?: Record<string, string>;
}
export interface UcColumn {
  name: string;
  type_text?: string;
  nullable?: boolean;
  comment?: string;
  position?: number;
  mask?: { function_name: string; using_column_names?: string[] };
}
export interface UcTable {
  catalog_name: string;
  schema_name: string;
  name: string;
  full_name?: string;
  table_type?: string;
  data_source_format?: string;
  owner?: string;
  comment?: string;
  storage_location?: string;
  view_definition?: string;
  properties?: Record<string, string>;
  columns?: UcColumn[];
  row_filter?: { function_name: string; input_column_names?: string[] };
  created_at?: number;
  updated_at?: number;
}
export interface UcVolume {
  catalog_name: string;
  schema_name: string;
  name: string;
  volume_type?: 'MANAGED' | 'EXTERNAL';
  storage_location?: string;
  owner?: string;
  comment?: string;
}
export interface UcFunction {
  catalog_name: string;
  schema_name: string;
  name: string;
  full_name?: string;
  owner?: string;
  comment?: string;
  data_type?: string;
  full_data_type?: string;
  routine_definition?: string;
}
export interface PrivilegeAssignment {
  principal: string;
  privileges: string[];
}
export interface EffectivePrivilegeAssignment {
  principal: string;
  privileges: { privilege: string; inherited_from_type?: string; inherited_from_name?: string }[];
}

/** Metastore-level objects listed by `GET /api/uc-objects`: response key → REST path. */
export const UC_OBJECT_PATHS = {
  external_locations: 'external-locations',
  storage_credentials: 'storage-credentials',
  connections: 'connections',
  registered_models: 'models',
  shares: 'shares',
  recipients: 'recipients',
} as const;
export type UcObjectKind = keyof typeof UC_OBJECT_PATHS;
/** The fields every one of them has (the rest differs by kind). */
export interface UcObject {
  name: string;
  owner?: string;
  comment?: string;
  full_name?: string;
  url?: string;
  connection_type?: string;
}
export interface UcMetastore {
  metastore_id: string;
  name?: string;
  owner?: string;
  region?: string;
  cloud?: string;
}

const enc = encodeURIComponent;
const UC = '/api/2.1/unity-catalog';

/** REST securable type names; views are tables to Unity Catalog. */
export function restSecurableType(type: SecurableType): string {
  return type === 'VIEW' ? 'table' : type.toLowerCase();
}

export class UnityCatalogApi {
  constructor(private readonly http: RestClient) {}

  listCatalogs = () => this.http.listAll<UcCatalog>(`${UC}/catalogs`, 'catalogs', { max_results: 1000 });
  getCatalog = (name: string) => this.http.request<UcCatalog>('GET', `${UC}/catalogs/${enc(name)}`);
  listSchemas = (catalog: string) =>
    this.http.listAll<UcSchema>(`${UC}/schemas`, 'schemas', { catalog_name: catalog, max_results: 1000 });
  getSchema = (fullName: string) => this.http.request<UcSchema>('GET', `${UC}/schemas/${enc(fullName)}`);
  listTables = (catalog: string, schema: string) =>
    this.http.listAll<UcTable>(`${UC}/tables`, 'tables', {
      catalog_name: catalog,
      schema_name: schema,
      max_results: 1000,
    });
  getTable = (fullName: string) => this.http.request<UcTable>('GET', `${UC}/tables/${enc(fullName)}`);
  listVolumes = (catalog: string, schema: string) =>
    this.http.listAll<UcVolume>(`${UC}/volumes`, 'volumes', {
      catalog_name: catalog,
      schema_name: schema,
      max_results: 1000,
    });
  getVolume = (fullName: string) => this.http.request<UcVolume>('GET', `${UC}/volumes/${enc(fullName)}`);
  listFunctions = (catalog: string, schema: string) =>
    this.http.listAll<UcFunction>(`${UC}/functions`, 'functions', {
      catalog_name: catalog,
      schema_name: schema,
      max_results: 1000,
    });
  getFunction = (fullName: string) => this.http.request<UcFunction>('GET', `${UC}/functions/${enc(fullName)}`);

  /** The metastore this workspace is assigned to (`GET …/metastore_summary`; no warehouse needed). */
  metastoreSummary = () => this.http.request<UcMetastore>('GET', `${UC}/metastore_summary`);
  /** One page-following list of an account-level kind (external locations, credentials, connections, …). */
  listUcObjects = (kind: UcObjectKind) => this.http.listAll<UcObject>(`${UC}/${UC_OBJECT_PATHS[kind]}`, kind);

  /** Direct grants on the securable (what a clone copies). */
  async getGrants(type: SecurableType, fullName: string): Promise<PrivilegeAssignment[]> {
    const res = await this.http.request<{ privilege_assignments?: PrivilegeAssignment[] }>(
      'GET',
      `${UC}/permissions/${restSecurableType(type)}/${enc(fullName)}`,
    );
    return res.privilege_assignments ?? [];
  }

  /** Grants including those inherited from the catalog and schema. */
  async getEffectiveGrants(
    type: SecurableType,
    fullName: string,
    principal?: string,
  ): Promise<EffectivePrivilegeAssignment[]> {
    const res = await this.http.request<{ privilege_assignments?: EffectivePrivilegeAssignment[] }>(
      'GET',
      `${UC}/effective-permissions/${restSecurableType(type)}/${enc(fullName)}`,
      { query: { principal } },
    );
    return res.privilege_assignments ?? [];
  }

  /** Owner and comment of any securable, from the object's own GET. */
  async getSecurable(type: SecurableType, fullName: string): Promise<{ owner?: string; comment?: string }> {
    switch (type) {
      case 'CATALOG':
        return this.getCatalog(fullName);
      case 'SCHEMA':
        return this.getSchema(fullName);
      case 'FUNCTION':
        return this.getFunction(fullName);
      case 'VOLUME':
        return this.getVolume(fullName);
      default:
        return this.getTable(fullName);
    }
  }
}
