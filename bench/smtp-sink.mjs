// A local SMTP server for bench/mail.ts, in a process of its own (as a real one would be): takes
// every message, prints `port <n>` once listening and `taken <n>` when asked on stdin (any line).
import { SMTPServer } from 'smtp-server';

let taken = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 1024 * 1024,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      taken++;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => console.log(`port ${server.server.address().port}`));
process.stdin.on('data', () => console.log(`taken ${taken}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
