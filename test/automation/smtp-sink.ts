import { createServer, type AddressInfo, type Server } from 'node:net';

/** A minimal SMTP receiver (no TLS, no auth): keeps each message's envelope and data, answers every command 2xx/3xx. */
export interface SmtpSink {
  port: number;
  messages: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') current.from = line.slice(10).trim();
        if (verb === 'RCPT') current.to.push(line.slice(8).trim());
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'DATA' ? '354 go on\r\n' : '250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    messages,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
