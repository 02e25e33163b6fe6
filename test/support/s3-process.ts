/**
 * An S3 endpoint in a process of its own, so that a test can stop it as an outage would:
 * `tsx test/support/s3-process.ts <directory> <port>` prints `listening <endpoint>` when ready.
 */
import { startLocalS3 } from "../../deploy/local/src/local-s3.js";

const [directory, port] = process.argv.slice(2);
if (!directory || !port) throw new Error("usage: s3-process.ts <directory> <port>");
const s3 = await startLocalS3(directory, { port: Number(port) });
process.stdout.write(`listening ${s3.endpoint}\n`);
