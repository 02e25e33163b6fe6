/**
 * Run before `npm start` and `npm test`: makes this install's template of a new embedded Postgres
 * cluster once (about 5 s), so that no start on a new data directory waits for initdb.
 */
import { prepareClusterTemplate } from "@countersign/kit/embedded-cluster.js";

await prepareClusterTemplate();
