import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Tells apart the connections serving a request from the rest. Node's closeIdleConnections spares a
 * connection that never sent a request or sent only part of one (a load balancer's preconnect, a
 * stalled client), and server.close() waits for it until its headers time out: a drain then took
 * the whole grace period. `closeIdle()` ends every connection with no request being answered.
 */
export function trackConnections(server: Server): { closeIdle(): void } {
  const open = new Set<Socket>();
  // A connection's answers go out in the order its requests came, so its latest answer is its last
  // to finish: one store a request, with no listener on each answer (4 % of a ping's CPU).
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res) => latest.set(req.socket, res));
  return {
    closeIdle() {
      for (const socket of open) if (latest.get(socket)?.writableFinished !== false) socket.destroy();
    },
  };
}
