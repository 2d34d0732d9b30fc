import type { FastifyInstance } from 'fastify';

/**
 * Listens on `host` when one is set; otherwise on every address, IPv6 and IPv4 alike (`::`), so a
 * client that resolves `localhost` to `::1` first (Godot 3 tries only the first address) reaches
 * the server too. A machine without IPv6 falls back to every IPv4 address.
 */
export async function listen(app: FastifyInstance, port: number, host: string | undefined): Promise<void> {
  if (host) {
    await app.listen({ port, host });
    return;
  }
  try {
    await app.listen({ port, host: '::' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw err;
    await app.listen({ port, host: '0.0.0.0' });
  }
}
