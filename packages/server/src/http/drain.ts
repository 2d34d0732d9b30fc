import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Tells apart the connections serving a request from the rest. Node's closeIdleConnections spares a
 * connection that never sent a request or sent only part of one (a load balancer's preconnect, a
 * stalled client), and server.close() waits for it until its headers time out: a drain then took
 * the whole grace period. `closeIdle()` ends every connection with no request being answered.
 */
export function trackConnections(server: Server): { closeIdle(): void } {
  const open = new Set<Socket>();
  const answering = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = answering.get(socket)! - 1;
      if (left > 0) answering.set(socket, left);
      else answering.delete(socket);
    });
  });
  return {
    closeIdle() {
      for (const socket of open) if (!answering.has(socket)) socket.destroy();
    },
  };
}
