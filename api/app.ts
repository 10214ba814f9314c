import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { AppDeps, RouteModule } from './deps';
import { apiKeyAuth, callerContext, configuredKeys } from './middleware/auth';
import { chain } from './middleware/chain';
import { errorHandler, notFoundHandler } from './middleware/errors';
import { requestLogging } from './middleware/logging';
import { requestId } from './middleware/request-id';
import { httpMetrics } from './middleware/http-metrics';
import { metricsRoutes } from './metrics/routes';
import { requestTracing, resumeRequestContext } from './middleware/tracing';
import { buildOpenApiDocument } from './openapi';
import { healthRoutes } from './health/routes';
import { docsRoutes } from './docs/routes';
import { cloneRoutes } from './clone/routes';
import { provenanceRoutes } from './clone/provenance-routes';
import { rollbackRoutes } from './clone/rollback-routes';
import { snapshotRoutes } from './clone/snapshot-routes';
import { templateRoutes } from './clone/template-routes';
import { auditRoutes } from './audit/routes';
import { cacheRoutes } from './cache/routes';
import { notificationRoutes } from './notifications/routes';
import { jobRoutes } from './jobs/routes';
import { dataQualityRoutes } from './data-quality/routes';
import { governanceRoutes } from './governance/routes';
import { glossaryRoutes } from './governance/glossary-routes';
import { contractRoutes } from './contracts/routes';
import { storageRoutes } from './storage/routes';
import { convertRoutes } from './convert/routes';
import { mdmRoutes } from './mdm/routes';
import { targetRoutes } from './targets/routes';
import { fanoutRoutes } from './fanout/routes';
import { streamRoutes } from './streams/routes';
import { scheduleRoutes } from './schedules/routes';
import { analysisRoutes } from './analysis/routes';
import { syncRoutes } from './sync/routes';
import { jobSocketUpgrade } from './jobs/socket';
import { addUpgradeHandler } from './middleware/upgrade';
import { workbenchRoutes } from './workbench/routes';
import { dltRoutes } from './dlt/routes';
import { generatorRoutes } from './generators/routes';
import { warehouseRoutes } from './warehouses/routes';
import { finopsRoutes } from './finops/routes';
import { budgetRoutes } from './finops/budgets-routes';
import { recommendationRoutes } from './finops/recommendations-routes';
import { copqRoutes } from './copq/routes';
import { automationRoutes } from './automation/routes';
import { pipelineRoutes } from './pipeline/routes';
import { nlRuleRoutes } from './nl-rules/routes';
import { jobCloneRoutes } from './job-clone/routes';
import { iacRoutes } from './generators/iac-routes';
import { streamingGeneratorRoutes } from './generators/streaming-routes';
import { complianceRoutes } from './compliance/routes';
import { aiRoutes } from './ai/routes';
import { captureRoutes } from './capture/routes';
import { webRoutes } from './web/routes';
import { authRoutes } from './auth/routes';
import { authWorkspaceRoutes } from './auth/workspace-routes';
import { oauthRoutes } from './auth/oauth-u2m';
import { cloudRoutes } from './auth/cloud-routes';
import { SESSION_COOKIE, sessionCaller, sessionMiddleware } from './auth/session';
import { tableRoutes } from './tables/routes';

/** Every domain's routes. A new domain adds its module here (and nothing else in this file). */
export const routeModules: RouteModule[] = [
  healthRoutes,
  jobRoutes,
  cloneRoutes,
  auditRoutes,
  notificationRoutes,
  cacheRoutes,
  rollbackRoutes,
  templateRoutes,
  snapshotRoutes,
  provenanceRoutes,
  metricsRoutes,
  docsRoutes,
  dataQualityRoutes,
  analysisRoutes,
  syncRoutes,
  governanceRoutes,
  glossaryRoutes,
  contractRoutes,
  storageRoutes,
  convertRoutes,
  targetRoutes,
  fanoutRoutes,
  streamRoutes,
  scheduleRoutes,
  mdmRoutes,
  workbenchRoutes,
  dltRoutes,
  generatorRoutes,
  warehouseRoutes,
  finopsRoutes,
  budgetRoutes,
  recommendationRoutes,
  copqRoutes,
  automationRoutes,
  pipelineRoutes,
  nlRuleRoutes,
  jobCloneRoutes,
  iacRoutes,
  streamingGeneratorRoutes,
  aiRoutes,
  captureRoutes,
  webRoutes,
  complianceRoutes,
  authRoutes,
  authWorkspaceRoutes,
  oauthRoutes,
  cloudRoutes,
  tableRoutes,
];

/**
 * Runs the session middleware only where a session can matter: a request carrying the session cookie, or one
 * under /api/auth/ (where sessions start, change and end). Elsewhere it would only make a session object and an
 * id for every request and throw them away (nothing is saved or sent before sign-in), which costs a load-balanced
 * API more than its routing; `req.session` is then absent, and readers treat that as not signed in.
 */
function whenSessionMatters(session: RequestHandler): RequestHandler {
  const cookie = `${SESSION_COOKIE}=`;
  return (req, res, next) => {
    if (req.headers.cookie?.includes(cookie) || req.path.toLowerCase().startsWith('/api/auth/')) {
      session(req, res, next);
      return;
    }
    next();
  };
}

/**
 * Builds the Express app without listening (tests drive it with supertest; api/server.ts listens).
 * Order matters: span → request id → log → CORS (answers preflights) → session cookie → API key (or session) → JSON body → the request's span
 * again (body parsing leaves its async context) → the caller's context → routes → 404 → errors. The chain before the
 * routes is one router layer (middleware/chain.ts).
 */
export function createApp(deps: AppDeps, modules: RouteModule[] = routeModules): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    chain(
      httpMetrics(),
      requestTracing(),
      requestId(),
      requestLogging(deps.logger),
      cors({ origin: deps.config.api_server.cors_origins, exposedHeaders: ['X-Request-Id'] }),
      whenSessionMatters(sessionMiddleware(deps.config, deps.store)),
      apiKeyAuth(configuredKeys(deps.config.api_server), sessionCaller(deps.config)),
      express.json({ limit: deps.config.api_server.json_limit }),
      resumeRequestContext(),
      callerContext(),
    ),
  );

  app.locals.routeModules = modules; // api/web/routes.ts lists their operations
  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get('/api/openapi.json', (_req, res) => {
    openapi ??= buildOpenApiDocument(modules);
    res.json(openapi);
  });
  for (const mod of modules) {
    const router = mod.router(deps);
    for (const mount of mod.mounts ?? ['/api']) app.use(mount, router);
  }

  addUpgradeHandler(app, jobSocketUpgrade(deps));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
