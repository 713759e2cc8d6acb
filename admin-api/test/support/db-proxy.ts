import net from 'node:net';

/**
 * A TCP proxy in front of the test MySQL server, so a test can cut the database away from a
 * running API (every connection dropped, nothing listening) and bring it back on the same port.
 */
export class DbProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  /** Listens (again, on the same port after a cut); resolves to the port. */
  open(): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((client) => {
        const upstream = net.connect(Number(this.target.port || 3306), this.target.hostname);
        for (const s of [client, upstream]) {
          this.sockets.add(s);
          s.on('close', () => this.sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.server = server;
        this.port = (server.address() as net.AddressInfo).port;
        resolve(this.port);
      });
    });
  }

  /** The database URL through the proxy. */
  url(): string {
    const via = new URL(this.target);
    via.port = String(this.port);
    return via.toString();
  }

  get listening(): boolean {
    return this.server?.listening ?? false;
  }

  /** Stops listening and drops every open connection. */
  cut(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server = null;
      for (const s of this.sockets) s.destroy();
    });
  }
}
