import { maxHeaderSize, type Server } from 'node:http';
import type { Socket } from 'node:net';

/*
 * Godot's HTTP clients (3.x and 4.x) write the request target as the game passed it: spaces and
 * raw UTF-8 included (`GET /data/HW Fox ü HTTP/1.1`). Node's parser answers those with an empty 400
 * before Fastify sees them, so this layer percent-encodes such a target on its way in. It only ever
 * rewrites a request line it is sure of: it follows each request's framing (Content-Length), and on
 * anything it does not follow exactly as Node would (Transfer-Encoding, duplicate lengths, bare LF or
 * CR, obs-fold, an upgrade) it stops rewriting on that connection and hands the bytes on untouched,
 * so that Node refuses or serves them as it would without the layer.
 */

const CR = 13;
const LF = 10;
const SP = 32;
const COLON = 58;
const SLASH = 47;

const table = (chars: string, extra: (byte: number) => boolean = () => false) => {
  const bytes = new Uint8Array(256);
  for (let b = 0; b < 256; b++) bytes[b] = chars.includes(String.fromCharCode(b)) || extra(b) ? 1 : 0;
  return bytes;
};
const isAlnum = (b: number) => (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122);
/** RFC 9110 tchar: the bytes of a method or a header name. */
const TCHAR = table("!#$%&'*+-.^_`|~", isAlnum);
/** Bytes a rewritten target carries percent-encoded: the two Node refuses, and those RFC 3986 never allows raw. */
const ESCAPED = table(' <>"{}|\\^`', (b) => b >= 0x80);
const HEX = '0123456789ABCDEF';

/** A request line Node takes as it is, one it refuses that is rewritten, or one left to Node (and the end of rewriting). */
export type LineVerdict = 'ordinary' | 'foreign' | Buffer;

/**
 * `line` is one request line with its CRLF. The method runs to the first space, the version
 * (`HTTP/1.0` or `HTTP/1.1`) follows the last one, the target is all between: when it holds a space
 * or a byte ≥ 0x80 (all Node refuses that a client can mean), it comes back percent-encoded.
 */
export function rewriteRequestLine(line: Buffer): LineVerdict {
  const cr = line.length - 2;
  if (cr < 0 || line[cr] !== CR || line[cr + 1] !== LF) return 'foreign';
  let method = 0;
  while (method < cr && TCHAR[line[method]!]) method++;
  const version = cr - 8;
  const start = method + 1;
  if (method === 0 || line[method] !== SP || version - 1 <= start || line[version - 1] !== SP) return 'foreign';
  if (!isHttp1(line, version)) return 'foreign';
  const end = version - 1;
  let refused = false;
  for (let i = start; i < end; i++) {
    const b = line[i]!;
    if (b === SP || b >= 0x80) refused = true;
    // Control bytes stay refused: nothing a client means needs them.
    else if (b < 0x21 || b === 0x7f) return 'foreign';
  }
  if (!refused) return 'ordinary';
  // Only the origin form (`/path?query`), the one Godot sends.
  if (line[start] !== SLASH) return 'foreign';
  let target = '';
  for (let i = start; i < end; i++) {
    const b = line[i]!;
    target += ESCAPED[b] ? `%${HEX[b >> 4]}${HEX[b & 15]}` : String.fromCharCode(b);
  }
  return Buffer.concat([line.subarray(0, start), Buffer.from(target, 'latin1'), line.subarray(end)]);
}

function isHttp1(line: Buffer, at: number): boolean {
  return (
    line.toString('latin1', at, at + 7) === 'HTTP/1.' && (line[at + 7] === 48 || line[at + 7] === 49) // 0 or 1
  );
}

/** Whether the header name `line[0, length)` is `name` (lower case, letters and dashes), in any case. */
function nameIs(line: Buffer, length: number, name: string): boolean {
  if (length !== name.length) return false;
  for (let i = 0; i < length; i++) if ((line[i]! | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

/** Line: before a request line (at the start or after a whole request); Off: every byte goes to Node as it came. */
type Mode = 'line' | 'head' | 'body' | 'off';

/** One connection's bytes on their way to Node's parser. */
export class RequestLines {
  private mode: Mode = 'line';
  /** Line: the request line so far, held back. Head: the header line so far, already handed on. */
  private carry: Buffer | undefined;
  private headBytes = 0;
  private contentLength = -1;
  private unframed = false;
  private bodyLeft = 0;

  /** `limit`: the size of head Node accepts; beyond it Node refuses the request anyway. */
  constructor(private readonly limit: number) {}

  /** The bytes to hand to Node in place of `chunk`: the same buffer unless a request line was rewritten. */
  feed(chunk: Buffer): Buffer {
    if (this.mode === 'off') return chunk;
    let data = chunk;
    if (this.carry && this.mode === 'line') {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    let parts: Buffer[] | undefined;
    let from = 0;
    let stop = data.length;
    let pos = 0;
    while (pos < data.length && (this.mode as Mode) !== 'off') {
      if (this.mode === 'body') {
        const n = Math.min(this.bodyLeft, data.length - pos);
        pos += n;
        this.bodyLeft -= n;
        if (this.bodyLeft === 0) this.mode = 'line';
      } else if (this.mode === 'head') {
        pos = this.headLine(data, pos);
      } else {
        const lf = data.indexOf(LF, pos);
        if (lf < 0) {
          if (data.length - pos > this.limit) this.mode = 'off';
          else {
            this.carry = Buffer.from(data.subarray(pos));
            stop = pos;
          }
          break;
        }
        // Node skips empty lines before a request line.
        if (lf === pos + 1 && data[pos] === CR) {
          pos = lf + 1;
          continue;
        }
        const verdict = lf + 1 - pos > this.limit ? 'foreign' : rewriteRequestLine(data.subarray(pos, lf + 1));
        if (verdict === 'foreign') {
          this.mode = 'off';
          break;
        }
        if (verdict !== 'ordinary') {
          parts ??= [];
          parts.push(data.subarray(from, pos), verdict);
          from = lf + 1;
        }
        this.startHead(data.toString('latin1', pos, pos + 8) === 'CONNECT ');
        this.headBytes = lf + 1 - pos;
        pos = lf + 1;
      }
    }
    if (!parts) return from === 0 && stop === data.length ? data : data.subarray(from, stop);
    parts.push(data.subarray(from, stop));
    return Buffer.concat(parts);
  }

  /** What is still held back when the client stops sending. */
  end(): Buffer | undefined {
    const held = this.mode === 'line' ? this.carry : undefined;
    this.carry = undefined;
    this.mode = 'off';
    return held;
  }

  private startHead(connect: boolean): void {
    this.mode = 'head';
    this.carry = undefined;
    this.contentLength = -1;
    this.unframed = connect;
  }

  /** Reads one header line from `pos` (or keeps its start); returns where reading goes on. */
  private headLine(data: Buffer, pos: number): number {
    const lf = data.indexOf(LF, pos);
    const taken = (lf < 0 ? data.length : lf + 1) - pos;
    this.headBytes += taken;
    if (this.headBytes > this.limit) {
      this.mode = 'off';
      return data.length;
    }
    let line = data.subarray(pos, pos + taken);
    if (this.carry) line = Buffer.concat([this.carry, line]);
    if (lf < 0) {
      this.carry = Buffer.from(line);
      return data.length;
    }
    this.carry = undefined;
    this.header(line);
    return lf + 1;
  }

  /** One whole header line, CRLF included: notes the framing, or stops at anything Node could read otherwise. */
  private header(line: Buffer): void {
    const cr = line.length - 2;
    // A bare LF or CR, or a NUL, could end a line for another reader: not followed.
    if (cr < 0 || line.indexOf(CR) !== cr || line.indexOf(0) >= 0) {
      this.mode = 'off';
      return;
    }
    if (cr === 0) return this.endHead();
    let name = 0;
    while (name < cr && TCHAR[line[name]!]) name++;
    // Also refuses obs-fold (a line starting with a space or tab) and a space before the colon.
    if (name === 0 || line[name] !== COLON) {
      this.mode = 'off';
    } else if (nameIs(line, name, 'content-length')) {
      const value = line.toString('latin1', name + 1, cr).replace(/^[ \t]+|[ \t]+$/g, '');
      if (this.contentLength >= 0 || !/^\d{1,15}$/.test(value)) this.mode = 'off';
      else this.contentLength = Number(value);
    } else if (nameIs(line, name, 'transfer-encoding') || nameIs(line, name, 'upgrade')) {
      this.unframed = true;
    }
  }

  private endHead(): void {
    // Chunked bodies and upgrades are not followed: Godot sends neither with a raw line.
    if (this.unframed) this.mode = 'off';
    else if (this.contentLength > 0) {
      this.mode = 'body';
      this.bodyLeft = this.contentLength;
    } else this.mode = 'line';
  }
}

type Readable = { push(chunk: unknown, encoding?: BufferEncoding): boolean };
type ClientErrorListener = (err: ParseError, socket: Socket) => void;
type ParseError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };
/** What Node's HTTP server keeps on a connection it serves (node:_http_server), read only to hand it on. */
type ServedSocket = Socket & {
  parser?: {
    unconsume?: unknown;
    remove?: unknown;
    close?: unknown;
    /** The last request whose head the parser read. */
    incoming?: { readableEnded: boolean; headers: Record<string, string | string[] | undefined> } | null;
  } | null;
  _httpMessage?: unknown;
};

/** The two refusals a raw Godot line meets: a space ends the target early, a byte ≥ 0x80 is not a URL byte. */
const REFUSED_LINE = new Set(['HPE_INVALID_CONSTANT', 'HPE_INVALID_URL']);
/** Node's listeners on a connection it serves (node:_http_server), taken off when the connection is taken over. */
const NODE_SOCKET_LISTENER =
  /^(bound )?(socketOnData|socketOnEnd|socketOnClose|socketOnDrain|socketOnError|socketOnTimeout|onSocketResume|onSocketPause)$/;
const SOCKET_EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause'] as const;
/** Events Node always listens to on a connection it serves: each must be found, or the connection is not taken over. */
const SERVED_EVENTS = ['data', 'end', 'close', 'drain'] as const;
/** The methods Godot's HTTPClient sends (3.x and 4.x). */
const GODOT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PATCH']);
// As Node answers a refusal when no clientError listener is set.
const NODE_REFUSALS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};

/**
 * Serves raw Godot request lines on `server`. Node's parser reads every connection in C++ as it
 * does by default; only when it refuses a request line that the layer would rewrite does the
 * connection pass to a `RequestLines` in front of a new parser, from that line on. Reading every
 * connection through JavaScript instead cost a game call about half its CPU.
 *
 * Taken over: a refused line that starts its TCP read (Godot writes a request in one piece, on a
 * connection with nothing else in flight). Any other refusal goes to the server's own clientError
 * listeners, or is answered as Node answers it, as without the layer.
 */
export function acceptRawRequestLines(server: Server): void {
  const others = server.listeners('clientError') as ClientErrorListener[];
  server.removeAllListeners('clientError');
  const limit = (server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
  const layered = new WeakSet<Socket>();
  server.on('clientError', (err: ParseError, socket: Socket) => {
    const from = layered.has(socket) ? undefined : rawLineStart(err, socket as ServedSocket);
    try {
      if (from !== undefined && takeOver(server, socket as ServedSocket, limit)) {
        layered.add(socket);
        (socket as unknown as Readable).push(from);
        return;
      }
    } catch (failed) {
      // This runs inside Node's parser callback: a throw here would end the process. The connection
      // is half handed over, so it is answered as Node answers a refusal and closed.
      refuseAsNode(err, socket as ServedSocket);
      socket.destroy(failed as Error);
      return;
    }
    if (others.length > 0) for (const listener of others) listener.call(server, err, socket);
    else refuseAsNode(err, socket as ServedSocket);
  });
}

/** The refused bytes from their request line on, when that line is one Godot sends and starts this read. */
function rawLineStart(err: ParseError, socket: ServedSocket): Buffer | undefined {
  const raw = err.rawPacket;
  const at = err.bytesParsed;
  if (!REFUSED_LINE.has(err.code ?? '') || !Buffer.isBuffer(raw) || typeof at !== 'number') return undefined;
  // With an answer under way, a new parser could not queue its own behind it.
  if (socket._httpMessage || socket.destroyed) return undefined;
  // The read must start between requests. A request answered before its body was read may still
  // have body bytes in flight: those would open this read, and be taken for a request line. Its
  // body has surely ended before this read only if the stream has ended (that needs a turn of the
  // event loop, which no read shares with the next).
  const previous = socket.parser?.incoming;
  if (previous && !previous.readableEnded && hasBody(previous.headers)) return undefined;
  let start = 0;
  // Node skips empty lines before a request line.
  while (raw[start] === CR && raw[start + 1] === LF) start += 2;
  const refused = firstRefusedByte(raw, start);
  const lf = raw.indexOf(LF, start);
  // Node refused at or after the first byte Godot's line has that Node refuses, within this line:
  // so Node's request line started here too, not in an earlier read.
  if (refused < 0 || at < refused || (lf >= 0 && at > lf)) return undefined;
  return raw.subarray(start);
}

/** Whether a request's head announces a body. */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Where `method SP /target` from `start` (a method Godot sends) first holds a space or a byte ≥ 0x80 in its target, or -1. */
function firstRefusedByte(data: Buffer, start: number): number {
  let i = start;
  while (i < data.length && TCHAR[data[i]!]) i++;
  if (i === start || data[i] !== SP || data[i + 1] !== SLASH) return -1;
  if (!GODOT_METHODS.has(data.toString('latin1', start, i))) return -1;
  for (i += 1; i < data.length; i++) {
    const b = data[i]!;
    if (b === SP || b >= 0x80) return i;
    if (b < 0x21 || b === 0x7f) return -1;
  }
  return -1;
}

/**
 * Hands `socket` from its refusing parser to a new one behind a `RequestLines`, as Node hands a
 * connection to an upgrade: its listeners off, its parser let go, then served again as a new connection.
 */
function takeOver(server: Server, socket: ServedSocket, limit: number): boolean {
  const serve = server.listeners('connection').find((l) => l.name === 'connectionListener');
  const parser = socket.parser;
  const nodeServes = (event: string) => socket.listeners(event).some((l) => NODE_SOCKET_LISTENER.test(l.name));
  // Only a connection Node serves as expected is taken over (a Node that renamed what this relies
  // on refuses raw lines again, as without the layer); nothing is changed before all is checked.
  if (!serve || !parser || typeof parser.unconsume !== 'function' || typeof parser.close !== 'function') return false;
  if (!SERVED_EVENTS.every(nodeServes)) return false;
  const close = parser.close.bind(parser) as () => void;
  for (const event of SOCKET_EVENTS) {
    for (const listener of socket.listeners(event)) {
      if (NODE_SOCKET_LISTENER.test(listener.name)) socket.removeListener(event, listener as () => void);
    }
  }
  (parser.unconsume as () => void).call(parser);
  if (typeof parser.remove === 'function') (parser.remove as () => void).call(parser);
  socket.parser = null;
  // A keep-alive timer left from an earlier answer is the old parser's; the new one sets its own.
  socket.setTimeout(0);
  // Closed once its own read has returned, as Node closes a parser it lets go.
  setImmediate(() => {
    try {
      close();
    } catch {
      // Already closed or freed: nothing is left to let go.
    }
  });
  const lines = new RequestLines(limit);
  const readable = socket as unknown as Readable;
  const push = readable.push.bind(socket);
  readable.push = (chunk, encoding) => {
    try {
      if (Buffer.isBuffer(chunk)) return push(lines.feed(chunk));
      if (chunk === null) {
        const held = lines.end();
        if (held) push(held);
      }
    } catch (failed) {
      // Called from the socket's read callback: a throw here would end the process.
      socket.destroy(failed as Error);
      return false;
    }
    return push(chunk, encoding);
  };
  // The handle stays marked as consumed, so the new parser reads it through the stream, past the layer.
  serve.call(server, socket);
  return true;
}

function refuseAsNode(err: ParseError, socket: ServedSocket): void {
  const answering = (socket._httpMessage as { _headerSent?: boolean } | undefined)?._headerSent;
  if (socket.writable && !answering)
    socket.write(NODE_REFUSALS[err.code ?? ''] ?? 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  socket.destroy(err);
}
