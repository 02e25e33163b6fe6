/**
 * What the pods of deploy/base give a process that the local launcher must give its processes too,
 * so that what a test measures here holds there (test/deploy-manifests.test.ts holds them equal).
 */

/** The gateway's heap (NODE_OPTIONS in deploy/base/gateway/deployment.yaml), in MiB. */
export const GATEWAY_HEAP_MB = 256;

/**
 * The Node flag of the containers that read upload bodies (gateway, documents): their buffers are
 * collected as they are read only with V8's `gc` exposed (services/kit/src/upload-garbage.ts).
 */
export const UPLOAD_READER_NODE_FLAGS = ["--expose-gc"];
