/**
 * An S3 API endpoint on loopback (s3rver) for running distributed mode on one machine without
 * MinIO. Production points S3_ENDPOINT at MinIO or any S3 service instead. s3rver is loaded only
 * when an endpoint is started: the launcher given an S3_ENDPOINT need not hold its 27 MiB.
 */

export interface LocalS3 {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  close(): Promise<void>;
}

/** s3rver's own credentials, which it always accepts. */
export const S3RVER_CREDENTIALS = { accessKey: "S3RVER", secretKey: "S3RVER" };

export interface LocalS3Options {
  /** The address it listens on: loopback unless given. */
  host?: string;
  /** A free port unless given. */
  port?: number;
  /** Credentials it accepts besides s3rver's own, and answers as its endpoint's. */
  credentials?: { accessKey: string; secretKey: string };
}

export async function startLocalS3(
  directory: string,
  { host = "127.0.0.1", port = 0, credentials = S3RVER_CREDENTIALS }: LocalS3Options = {},
): Promise<LocalS3> {
  const [{ default: S3rver }, { DUMMY_ACCOUNT }] = await Promise.all([
    import("s3rver"),
    import("s3rver/lib/models/account.js"),
  ]);
  // s3rver keeps one account in a module-wide registry: a key pair added is accepted by every
  // endpoint of the process, which for a local stand-in is no loss.
  DUMMY_ACCOUNT.createKeyPair(credentials.accessKey, credentials.secretKey);
  // Countersign addresses buckets by path: without this, a request to a host by name (`minio:9000` in
  // a cluster) would be read as one to the bucket "minio".
  const server = new S3rver({ address: host, port, directory, silent: true, vhostBuckets: false });
  const address = await server.run();
  return {
    endpoint: `http://${host}:${address.port}`,
    ...credentials,
    close: () => server.close(),
  };
}
