// A light HTTP/1.1 client for the soaks: kept-alive sockets written with prepared request text and answers read
// by their Content-Length (or chunks), one request in flight per socket, the rest waiting in order for the next
// free one, as with node:http's Agent. Node's own http client spent a whole core at 2,500 requests a second on
// this 2-core machine, so the soak measured its own queue as much as the server; see bench/README.md.
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

/** Where an answer's body ends in `buffer` (headers end at `head`), or -1 while more is to come. */
function bodyEnd(buffer, head, headers) {
  const length = /\r\ncontent-length: *(\d+)/i.exec(headers);
  if (length) {
    const end = head + Number(length[1]);
    return buffer.length >= end ? end : -1;
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(headers)) return head;
  let at = head;
  for (;;) {
    const line = buffer.indexOf('\r\n', at);
    if (line < 0) return -1;
    const size = parseInt(buffer.toString('latin1', at, line), 16);
    at = line + 2 + size + 2;
    if (buffer.length < at) return -1;
    if (size === 0) return at;
  }
}

class Connection {
  /** @param {Pool} pool */
  constructor(pool) {
    this.pool = pool;
    this.socket = null;
    this.buffer = Buffer.alloc(0);
    /** The request in flight: { resolve, started }. */
    this.current = null;
  }

  send(request) {
    this.current = request;
    if (!this.socket || this.socket.destroyed) this.connect();
    this.socket.write(request.text);
  }

  connect() {
    const socket = net.connect({ host: this.pool.host, port: this.pool.port, noDelay: true });
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => this.read(chunk));
    const lost = (why) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.finish({ ok: false, why });
    };
    socket.on('error', (error) => lost(error.code ?? error.message));
    socket.on('close', () => lost('closed by the server'));
  }

  read(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const head = this.buffer.indexOf(HEADER_END);
    if (head < 0) return;
    const headers = this.buffer.toString('latin1', 0, head);
    const end = bodyEnd(this.buffer, head + 4, headers);
    if (end < 0) return;
    this.buffer = this.buffer.subarray(end);
    // A server that closes after this answer: the next request goes on a new socket (lost ignores this one).
    if (/\r\nconnection: *close/i.test(headers)) {
      const socket = this.socket;
      this.socket = null;
      socket?.destroy();
    }
    const status = Number(headers.slice(9, 12));
    this.finish({ ok: status >= 200 && status < 300, why: `HTTP ${status}` });
  }

  finish(outcome) {
    const request = this.current;
    if (!request) return;
    this.current = null;
    request.resolve({ ...outcome, ms: performance.now() - request.started });
    this.pool.free(this);
  }
}

export class Pool {
  /** @param {string} origin like http://127.0.0.1:3000 @param {number} connections at most this many sockets */
  constructor(origin, connections) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.idle = Array.from({ length: connections }, () => new Connection(this));
    this.all = [...this.idle];
    this.waiting = [];
  }

  /** PUT a JSON body; answers { ok, why, ms } and never throws (a socket error is an outcome too). */
  put(path, body, cookie) {
    const text =
      `PUT ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n` +
      (cookie ? `cookie: ${cookie}\r\n` : '') +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise((resolve) => {
      const request = { text, resolve, started: performance.now() };
      const connection = this.idle.pop();
      if (connection) connection.send(request);
      else this.waiting.push(request);
    });
  }

  free(connection) {
    const next = this.waiting.shift();
    if (next) connection.send(next);
    else this.idle.push(connection);
  }

  close() {
    for (const connection of this.all) connection.socket?.destroy();
  }
}
