/**
 * The local time-stamping authority as a process of its own, for the Kubernetes dev overlay (a
 * Deployment beside Mailpit and MinIO): OpenSSL's `ts -reply` behind HTTP, its keys made on first
 * start in COUNTERSIGN_TSA_DIR. Not for production: point COUNTERSIGN_TSA_URL at a real authority.
 */
import { createLogger, loadConfig, runMain } from "@countersign/kit";
import { startLocalTimestampAuthority, timestampAuthorityConfigSchema } from "./timestamp-authority.js";

runMain(async () => {
  const config = loadConfig(timestampAuthorityConfigSchema);
  const logger = createLogger({ name: "timestamp-authority", level: config.LOG_LEVEL });
  const authority = await startLocalTimestampAuthority(config.COUNTERSIGN_TSA_DIR, config.PORT, "0.0.0.0");
  logger.info({ port: config.PORT }, "time-stamping authority ready (OpenSSL ts, development only)");
  const stop = async () => {
    await authority.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
});
