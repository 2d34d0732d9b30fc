import Fastify from 'fastify';

/** The bare baseline the bench divides by: Fastify answering `GET /hello` and echoing `POST /echo`. */
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
app.post('/echo', async (request) => request.body);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
console.log(`baseline listening on ${typeof address === 'object' && address ? address.port : ''}`);
