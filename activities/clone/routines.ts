import type { Workspace } from '../../platform/port';
import type { FunctionInfo, TableRef } from '../../platform/types';
import { NotFoundError } from '../../platform/errors';
import { rewriteCatalogRefs } from './logic/sql-identifiers';

/**
 * Functions on the destination, created on demand: a row filter or column mask may name a function of
 * another schema that its own schema workflow has not reached yet. CREATE OR REPLACE keeps this idempotent
 * when two schema workflows create the same function.
 */
export class FunctionCopier {
  private readonly dstKnown = new Map<string, Promise<Set<string>>>();
  private readonly srcFunctions = new Map<string, Promise<Map<string, FunctionInfo>>>();

  constructor(
    private readonly src: Workspace,
    private readonly dst: Workspace,
    private readonly sourceCatalog: string,
    private readonly destCatalog: string,
    private readonly copyComments: boolean,
  ) {}

  /** The destination name for a function the source names (`catalog.schema.fn`). */
  destName(functionName: string): string {
    const parts = functionName.split('.');
    if (parts.length === 3 && parts[0].toLowerCase() === this.sourceCatalog.toLowerCase()) {
      return [this.destCatalog, parts[1], parts[2]].join('.');
    }
    return functionName;
  }

  async create(fn: FunctionInfo): Promise<void> {
    const ref: TableRef = { catalog: this.destCatalog, schema: fn.schema, name: fn.name };
    await this.dst.createFunction({
      ref,
      parameters: fn.parameters,
      returnType: fn.returnType,
      body: rewriteCatalogRefs(fn.body, this.sourceCatalog, this.destCatalog),
      comment: this.copyComments ? fn.comment : null,
      replace: true,
    });
    (await this.known(fn.schema)).add(fn.name.toLowerCase());
  }

  /** Makes sure `destFunctionName` exists on the destination, copying it from the source if needed. */
  async ensure(destFunctionName: string): Promise<void> {
    const [catalog, schema, name] = destFunctionName.split('.');
    if (catalog?.toLowerCase() !== this.destCatalog.toLowerCase() || !schema || !name) return;
    if ((await this.known(schema)).has(name.toLowerCase())) return;
    const fn = (await this.sourceSchema(schema)).get(name.toLowerCase());
    if (!fn) throw new NotFoundError(`function ${this.sourceCatalog}.${schema}.${name} not found in the source`);
    await this.create(fn);
  }

  sourceSchema(schema: string): Promise<Map<string, FunctionInfo>> {
    let p = this.srcFunctions.get(schema);
    if (!p) {
      p = this.src
        .listFunctions(this.sourceCatalog, schema)
        .then((fs) => new Map(fs.map((f) => [f.name.toLowerCase(), f])));
      this.srcFunctions.set(schema, p);
    }
    return p;
  }

  private known(schema: string): Promise<Set<string>> {
    let p = this.dstKnown.get(schema);
    if (!p) {
      p = this.dst
        .listFunctions(this.destCatalog, schema)
        .then((fs) => new Set(fs.map((f) => f.name.toLowerCase())))
        .catch((err) => (err instanceof NotFoundError ? new Set<string>() : Promise.reject(err)));
      this.dstKnown.set(schema, p);
    }
    return p;
  }
}
