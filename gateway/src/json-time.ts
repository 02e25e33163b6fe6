/** Timestamps of service messages as the public API writes them: ISO 8601 in UTC. */
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

/** A time the service always sets. */
export function iso(time: Timestamp | undefined): string {
  if (!time) throw new Error("a service answered without a time it always sets");
  return timestampDate(time).toISOString();
}

/** A time that is set once the thing it dates has happened. */
export function isoOrNull(time: Timestamp | undefined): string | null {
  return time ? timestampDate(time).toISOString() : null;
}
