import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Workspace } from '../port';
import { recordWarehouseStatement } from './metrics';

/** Methods that are not statements: bookkeeping of the adapter itself. */
const NOT_STATEMENTS = new Set(['close', 'constructor']);

/** SQL verbs a read-only `query` may start with; anything else is reported as OTHER (never the text itself). */
const SQL_VERBS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'VALUES', 'TABLE', 'FROM']);

/**
 * The statement's kind: the port method (`cloneTable`, `getGrants`, …), or for `query` the SQL verb of the
 * statement (`SELECT`, `SHOW`, …). Never literals, names or credentials: kinds are a small fixed set, safe as
 * a metric label and a span attribute.
 */
export function statementKind(method: string, args: unknown[]): string {
  if (method !== 'query') return method;
  const sql = typeof args[0] === 'string' ? args[0] : '';
  const verb = /^[\s(]*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase();
  return verb && SQL_VERBS.has(verb) ? verb : 'OTHER';
}

/**
 * Wraps a platform workspace so every statement it issues is a span (`warehouse <kind>`, client kind, with the
 * adapter and statement kind; inside an activity it also carries the job's attributes) and is counted in
 * lakeward_warehouse_statements_total / lakeward_warehouse_statement_duration_seconds. A failed statement's span
 * records the error's class only: platform messages can echo literals of the statement.
 */
export function instrumentWorkspace(ws: Workspace): Workspace {
  const tracer = trace.getTracer('lakeward.warehouse');
  const adapter = ws.kind;
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || NOT_STATEMENTS.has(prop)) return value;
      const method = value as (...a: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const kind = statementKind(prop, args);
        const attributes = { 'lakeward.adapter': adapter, 'lakeward.statement.kind': kind, 'db.operation.name': kind };
        return tracer.startActiveSpan(`warehouse ${kind}`, { kind: SpanKind.CLIENT, attributes }, (span) => {
          const started = performance.now();
          const done = (outcome: 'ok' | 'error', err?: unknown) => {
            recordWarehouseStatement(adapter, kind, outcome, (performance.now() - started) / 1000);
            if (err !== undefined) {
              const type = err instanceof Error ? err.name : 'Error';
              span.setAttribute('error.type', type);
              span.setStatus({ code: SpanStatusCode.ERROR, message: type });
            }
            span.end();
          };
          let out: unknown;
          try {
            out = method.apply(target, args);
          } catch (err) {
            done('error', err);
            throw err;
          }
          if (!(out instanceof Promise)) {
            done('ok');
            return out;
          }
          return out.then(
            (value) => {
              done('ok');
              return value;
            },
            (err: unknown) => {
              done('error', err);
              throw err;
            },
          );
        });
      };
    },
  });
}
