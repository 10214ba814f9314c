/** Variables the Databricks SDKs and Terraform read for a workspace and for an Azure (Entra ID) principal. */
export const AUTH_ENV_VARS = [
  'DATABRICKS_HOST',
  'DATABRICKS_TOKEN',
  'DATABRICKS_CLIENT_ID',
  'DATABRICKS_CLIENT_SECRET',
  'DATABRICKS_CONFIG_PROFILE',
  'DATABRICKS_CONFIG_FILE',
  'ARM_CLIENT_ID',
  'ARM_CLIENT_SECRET',
  'ARM_TENANT_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_TENANT_ID',
] as const;

const SECRET_VARS = new Set([
  'DATABRICKS_TOKEN',
  'DATABRICKS_CLIENT_SECRET',
  'ARM_CLIENT_SECRET',
  'AZURE_CLIENT_SECRET',
]);

/** A secret shows at most its last 4 characters, and none when it is shorter than 12. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `****${value.slice(-4)}` : '****';
}

/** Each variable → its value (a secret masked) or null when unset. */
export function authEnvVars(env: NodeJS.ProcessEnv): Record<string, string | null> {
  return Object.fromEntries(
    AUTH_ENV_VARS.map((name) => {
      const v = env[name];
      return [name, v ? (SECRET_VARS.has(name) ? maskSecret(v) : v) : null];
    }),
  );
}

/**
 * Databricks Apps runs an app with DATABRICKS_APP_NAME, DATABRICKS_HOST and its service principal's
 * DATABRICKS_CLIENT_ID / DATABRICKS_CLIENT_SECRET set; anything less is not a hosted app.
 */
export function hostedApp(env: NodeJS.ProcessEnv): { host: string; clientId: string; clientSecret: string } | null {
  const { DATABRICKS_APP_NAME: app, DATABRICKS_HOST: host } = env;
  const { DATABRICKS_CLIENT_ID: clientId, DATABRICKS_CLIENT_SECRET: clientSecret } = env;
  return app && host && clientId && clientSecret ? { host, clientId, clientSecret } : null;
}
