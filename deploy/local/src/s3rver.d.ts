/** The part of s3rver's API the local launcher uses (the package ships no types). */
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
    /** Whether a request to a host by name is one to the bucket of that name (true by default). */
    vhostBuckets?: boolean;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

/** The one account s3rver answers for, and the key pairs it accepts. */
declare module "s3rver/lib/models/account.js" {
  export const DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
}
