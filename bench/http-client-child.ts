/**
 * A benchmark's HTTP client in a process of its own, as a user's client would be: the parent sends
 * `{ url, method, body }`, this process times the request from sending it to the parsed JSON answer and sends back
 * `{ ms, status, body }` (or `{ error }`). Its connections are kept between requests, like a client's.
 */
interface Ask {
  url: string;
  method: string;
  body?: unknown;
}

process.on('message', (ask: Ask) => {
  const started = process.hrtime.bigint();
  fetch(ask.url, {
    method: ask.method,
    headers: { 'content-type': 'application/json' },
    body: ask.body === undefined ? undefined : JSON.stringify(ask.body),
  })
    .then(async (res) => {
      const body: unknown = await res.json();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      process.send!({ ms, status: res.status, body });
    })
    .catch((err: unknown) => process.send!({ error: String((err as Error)?.stack ?? err) }));
});
