// Loaded into the measured server by the bench alone (`--expose-gc --require`): asked over the IPC
// channel, it runs a full collection and answers the resident memory, so garbage not yet collected
// does not count as what the server holds.
process.channel?.unref();
process.on('message', (message) => {
  if (message !== 'settle') return;
  globalThis.gc();
  globalThis.gc();
  process.send({ rss: process.memoryUsage.rss() });
});
