/** One problem in the configuration: the dotted key path and what is wrong with it. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** Start-up stops with this error; its message names every bad key and where the value came from. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];

  constructor(issues: ConfigIssue[], configPath: string | null) {
    const where = configPath ? ` (config file ${configPath})` : '';
    super(`Invalid configuration${where}:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
