import express from 'express';

/**
 * The ceiling for the benchmark: a bare Express app answering every GET with the same JSON body,
 * built once, of BODY_BYTES bytes. What the API adds (auth, queries, serialisation) is measured
 * against what Node and Express cost on this machine. Prints its address once it listens.
 */
const bytes = Number(process.env.BODY_BYTES);
if (!Number.isInteger(bytes) || bytes < 16) {
  console.error('BODY_BYTES must be a whole number of at least 16');
  process.exit(2);
}

// {"padding":"xxxx"} is 14 bytes around the padding.
const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(bytes - 14) }));
const app = express();
app.disable('x-powered-by');
app.get('/{*path}', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') {
    console.log(`baseline listening on http://127.0.0.1:${address.port}`);
  }
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
