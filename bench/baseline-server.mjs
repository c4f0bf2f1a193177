// Baselines for the autosave benchmark, each a bare node:http server with no framework, session or validation:
//   json: answers the same JSON as the endpoint (the ceiling of any endpoint);
//   sql:  runs the endpoint's UPDATE on the same database and answers it (the ceiling of this endpoint).
// Usage: node bench/baseline-server.mjs <json|sql> <port> <pglite data dir | postgres url>
// The participant to write is the request's path: PUT /<participantId>.
import { createServer } from 'node:http';

const [mode, port, database] = process.argv.slice(2);
const body = JSON.stringify({ status: 'in_progress', progress: 3, savedAt: new Date().toISOString() });

let update = async () => body;
if (mode === 'sql') {
  const statement = `update participants
    set responses = $1::text::jsonb, progress = $2, status = 'in_progress', last_activity = now()
    where id = $3 and status <> 'completed'
    returning status, progress, last_activity`;
  if (database.startsWith('postgres')) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(database, { max: 10 });
    update = async (responses, participantId) => {
      const [row] = await sql.unsafe(statement, [responses, 3, participantId]);
      return JSON.stringify({ status: row.status, progress: row.progress, savedAt: row.last_activity });
    };
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(database);
    update = async (responses, participantId) => {
      const { rows } = await db.query(statement, [responses, 3, participantId]);
      const row = rows[0];
      return JSON.stringify({ status: row.status, progress: row.progress, savedAt: row.last_activity });
    };
  }
}

createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    update(raw || '{}', req.url.slice(1))
      .then((out) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(out);
      })
      .catch((error) => {
        res.writeHead(500);
        res.end(String(error));
      });
  });
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
