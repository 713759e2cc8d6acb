// A pass-through HTTP proxy in front of the real API, for the builder's tests: the builder (and the
// site's renderer) read the API through it, and a test can make chosen requests fail, hang, or wait
// for a gate, to see what a publish does when the API misbehaves in the middle of it.
import http from 'node:http';

import { stopOnce } from './wait.mjs';

/**
 * @param {string} target  the API's origin, e.g. http://127.0.0.1:3000
 * @param {{ keepHost?: boolean }} [options]  keepHost: requests keep the Host they were sent with (an S3 server checks it against the signature).
 */
export async function startApiProxy(target, { keepHost = false } = {}) {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  /** @type {{ test: (method: string, url: string) => boolean, action: 'fail' | 'reply' | 'hang' | 'gate', times: number, status: number, body?: unknown, waiting: (() => void)[], arrivals: (() => void)[], seen: number }[]} */
  const rules = [];
  const held = new Set();

  const forward = (req, res, again = true) => {
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: keepHost ? req.headers : { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', (error) => {
      // A kept-alive connection the API closed just as it was reused (Node's http docs, request.reusedSocket):
      // sent once more, as a browser would, so a busy machine does not turn it into a 502 the API never gave.
      if (again && out.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent && req.method === 'GET')
        return forward(req, res, false);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (req.method === 'GET') out.end();
    else req.pipe(out);
  };

  /** The URLs the builder asked for, in order (a test empties it to see what one publish reads). */
  const requested = [];
  const server = http.createServer((req, res) => {
    requested.push(req.url ?? '/');
    const rule = rules.find((r) => r.times !== 0 && r.test(req.method ?? 'GET', req.url ?? '/'));
    if (!rule) return forward(req, res);
    if (rule.times > 0) rule.times--;
    rule.seen++;
    if (rule.action === 'fail' || rule.action === 'reply') {
      res.writeHead(rule.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(rule.body ?? { statusCode: rule.status, message: 'Failure injected by the test proxy' }));
    }
    held.add(res);
    res.once('close', () => held.delete(res));
    if (rule.action === 'gate') {
      rule.waiting.push(() => forward(req, res));
      for (const notify of rule.arrivals.splice(0)) notify();
    }
    // 'hang': never answered (until the proxy closes).
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;

  const add = (action, pattern, times, status = 500, body = undefined) => {
    const rule = {
      test: (method, u) => method === 'GET' && pattern.test(u),
      action,
      times,
      status,
      body,
      waiting: [],
      arrivals: [],
      seen: 0,
    };
    rules.push(rule);
    return rule;
  };
  const clear = () => releaseRules(rules);
  return {
    url,
    requested,
    /** The next `times` GETs whose URL matches answer `status` (-1: every one, until clear()). */
    fail: (pattern, times = 1, status = 500) => add('fail', pattern, times, status),
    /** Matching GETs are answered `body` (JSON) with `status` instead of the API's answer (until clear(), or the rule's `times = 0`). */
    reply: (pattern, body, status = 200) => add('reply', pattern, -1, status, body),
    /** Matching GETs are never answered (until clear()). */
    hang: (pattern) => add('hang', pattern, -1),
    /** Matching GETs wait until open() of the returned gate. */
    gate(pattern) {
      const rule = add('gate', pattern, -1);
      return {
        rule,
        /** Resolves once a request waits at the gate. */
        reached: () => new Promise((resolve) => (rule.waiting.length ? resolve() : rule.arrivals.push(resolve))),
        open() {
          rule.times = 0;
          for (const go of rule.waiting.splice(0)) go();
        },
      };
    },
    /** Forgets every rule; requests that hang stay unanswered. */
    clear,
    close: stopOnce(async () => {
      clear();
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    }),
  };
}

/** Forgets every rule, letting what waits at a gate go on. */
function releaseRules(rules) {
  for (const rule of rules.splice(0)) {
    rule.times = 0;
    for (const go of rule.waiting.splice(0)) go();
  }
}
