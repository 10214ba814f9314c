import type { Command } from 'commander';
import { loadConfig } from '../../config/load';

type WebFlags = { config?: string; port?: string; host?: string; apiUrl?: string; dist?: string };

/** Loaded on use, like the stack: `lakeward web` needs Express and the proxy, other commands do not. */
const webConsole = () => import('../../workers/web-console');

/**
 * `lakeward web`: serves the built console (`web/dist`) with `/api` and its WebSockets proxied to the API, until
 * Ctrl-C. Flags win over config `web.port|host|api_url` and LAKEWARD_WEB_PORT.
 */
export function registerWebCommand(program: Command): void {
  program
    .command('web')
    .description('Serve the web console (web/dist) and proxy /api to the API')
    .option('--config <file>', 'config file (env LAKEWARD_CONFIG, default ./config/lakeward.yaml)')
    .option('--port <port>', 'port to listen on (config web.port, env LAKEWARD_WEB_PORT, default 8000)')
    .option('--host <host>', 'address to listen on (config web.host, default 127.0.0.1)')
    .option('--api-url <url>', "the API to proxy /api to (config web.api_url, default the config's api_server)")
    .option('--dist <dir>', 'the built console (default web/dist of this checkout)')
    .action(async (flags: WebFlags) => {
      const config = loadConfig({
        flags: { config: flags.config, webPort: flags.port, webHost: flags.host, webApiUrl: flags.apiUrl },
      });
      const web = await webConsole();
      let running;
      try {
        running = await web.startWebConsole({
          distDir: flags.dist ?? web.DEFAULT_WEB_DIST,
          apiUrl: web.webApiUpstream(config),
          console: web.consoleConfigOf(config),
          host: config.web.host,
          port: config.web.port,
        });
      } catch (err) {
        if (!(err instanceof web.MissingWebBuildError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
        return;
      }
      console.error(`Lakeward console at ${running.url} (API ${web.webApiUpstream(config)}). Press Ctrl-C to stop.`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await running.close();
    });
}
