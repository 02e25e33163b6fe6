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

/** s3rver accepts exactly these credentials. */
export const S3RVER_CREDENTIALS = { accessKey: "S3RVER", secretKey: "S3RVER" };

export async function startLocalS3(directory: string, port = 0): Promise<LocalS3> {
  const { default: S3rver } = await import("s3rver");
  const server = new S3rver({ address: "127.0.0.1", port, directory, silent: true });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    ...S3RVER_CREDENTIALS,
    close: () => server.close(),
  };
}
