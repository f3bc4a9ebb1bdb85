// Benchmark support: a receiver of events that answers every POST with 200 at once and counts them;
// prints "ready <port>" once listening and the count on SIGTERM.
//   node event-sink.mjs <port>
import { createServer } from 'node:http';

let received = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    response.writeHead(200).end('ok');
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write(`ready ${process.argv[2]}\n`));
process.once('SIGTERM', () => {
  process.stdout.write(`received ${received}\n`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
