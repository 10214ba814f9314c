import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';

/** Handles an HTTP upgrade if the path is its own (returns true), else leaves it to the next handler. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

const KEY = 'upgradeHandlers';

/** Registers WebSocket endpoints on the app; the HTTP server routes upgrades to them with `upgradeListener`. */
export function addUpgradeHandler(app: Express, handler: UpgradeHandler): void {
  const list = (app.locals[KEY] as UpgradeHandler[] | undefined) ?? [];
  app.locals[KEY] = [...list, handler];
}

/** The server's 'upgrade' listener: the first handler that claims the path wins; other paths are refused. */
export function upgradeListener(app: Express) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    for (const handler of (app.locals[KEY] as UpgradeHandler[] | undefined) ?? []) {
      if (handler(req, socket, head)) return;
    }
    refuseUpgrade(socket, 404, 'Not Found');
  };
}

export function refuseUpgrade(socket: Duplex, status: number, reason: string, body = ''): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
