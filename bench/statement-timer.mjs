// Loaded into the measured server by `npm run bench:statements` alone (`--import`): times every
// statement better-sqlite3 runs on the serving thread, by its SQL text, and answers the totals over
// the IPC channel ('reset' starts counting again, 'report' answers what was counted since).
import { createRequire } from 'node:module';

const Database = createRequire(`${process.cwd()}/packages/server/`)('better-sqlite3');

const totals = new Map();
const timed = (sql, run) =>
  function (...args) {
    const start = process.hrtime.bigint();
    try {
      return run.apply(this, args);
    } finally {
      const total = totals.get(sql) ?? { calls: 0, ns: 0 };
      total.calls++;
      total.ns += Number(process.hrtime.bigint() - start);
      totals.set(sql, total);
    }
  };
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql, ...rest) {
  const statement = prepare.call(this, sql, ...rest);
  for (const method of ['run', 'get', 'all']) statement[method] = timed(sql, statement[method]);
  return statement;
};
const exec = Database.prototype.exec;
Database.prototype.exec = function (sql) {
  return timed(sql, exec).call(this, sql);
};

process.channel?.unref();
process.on('message', (message) => {
  if (message === 'reset') totals.clear();
  if (message === 'report') process.send({ statements: [...totals].map(([sql, t]) => ({ sql, ...t })) });
});
