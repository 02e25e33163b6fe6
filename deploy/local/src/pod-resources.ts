/**
 * What the pods of deploy/base give a process that the local launcher must give its processes too,
 * so that what a test measures here holds there (test/deploy-manifests.test.ts holds them equal).
 */

/** The gateway's heap (NODE_OPTIONS in deploy/base/gateway/deployment.yaml), in MiB. */
export const GATEWAY_HEAP_MB = 256;
