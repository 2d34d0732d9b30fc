import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@howl/contract';
import type { FastifyInstance } from 'fastify';
import { envelope, errorBody, type ErrorShape } from './errors.js';

const SERVED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

interface Answer {
  status: number;
  code: ErrorCode;
  message: string;
}

const NOT_UNDERSTOOD: Answer = {
  status: 400,
  code: 'InvalidParameter',
  message: 'The request could not be understood.',
};
const BAD_LENGTH: Answer = {
  status: 400,
  code: 'InvalidParameter',
  message: 'The Content-Length header is invalid, or was sent with Transfer-Encoding.',
};

// Node's HTTP parser errors (llhttp codes), in the one error envelope.
const parserErrors: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'HeadersTooLarge', message: 'The URL or the headers are too large.' },
  HPE_INVALID_METHOD: { status: 405, code: 'MethodNotAllowed', message: 'This HTTP method is not supported.' },
  HPE_INVALID_CHUNK_SIZE: { status: 400, code: 'InvalidParameter', message: 'The chunked request body is malformed.' },
  HPE_INVALID_TRANSFER_ENCODING: {
    status: 400,
    code: 'InvalidParameter',
    message: 'The Transfer-Encoding header is invalid; send chunked last, or no Transfer-Encoding.',
  },
  HPE_INVALID_CONTENT_LENGTH: BAD_LENGTH,
  HPE_UNEXPECTED_CONTENT_LENGTH: BAD_LENGTH,
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'RequestTimeout', message: 'The request took too long to arrive.' },
};

/** The path of the request line that begins `packet` (what the parser refused), if it has one. */
function pathOf(packet: unknown): string | undefined {
  return Buffer.isBuffer(packet) ? packet.toString('latin1', 0, 8192).match(/^[A-Z]+ (\S+)/)?.[1] : undefined;
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses never reach a route, so the
 * answer is written on the socket here, in the error envelope (shaped for the path the request
 * line names), and the connection is closed.
 */
export const answerClientError =
  (shape: ErrorShape = envelope) =>
  (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = (err.code && parserErrors[err.code]) || NOT_UNDERSTOOD;
    const body = JSON.stringify(shape(pathOf(err.rawPacket), errorBody(code, message)));
    const allow = status === 405 ? `Allow: ${SERVED_METHODS}\r\n` : '';
    // As Node does: never write into the middle of an answer already under way on this connection.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (socket.writable && !answering) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n${allow}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };

/**
 * What Node would refuse itself with an empty body, in the envelope: an Expect other than
 * 100-continue (417), and an HTTP/1.1 request without Host (with the server's `requireHostHeader: false`).
 */
export function answerNodeRefusals(app: FastifyInstance, shape: ErrorShape = envelope): void {
  app.server.on('checkExpectation', (request: { url?: string }, res: ServerResponse) => {
    const body = JSON.stringify(
      shape(request.url, errorBody('InvalidParameter', 'Only Expect: 100-continue is supported.')),
    );
    res.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host) return done();
    void reply.status(400).send(shape(request.url, errorBody('InvalidParameter', 'Send the Host header.')));
  });
}
