/**
 * Where a workspace's signing page may be shown in a frame: the origins of the integrator's own
 * pages. None by default, so no page of another site can frame a signer until the workspace names
 * it; an embedded signing URL is then made for one of them and opens in its frame alone.
 */
import { frameOriginOf, listedFrameOrigin, MAX_FRAME_ORIGINS } from "@countersign/domain";
import type { EmbeddingSettings as EmbeddingSettingsMessage } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, type FieldViolation, type Queryable, validationError } from "@countersign/kit";

export interface EmbeddingSettings {
  /** Origins as the browser compares them: lower case, no default port, no path. */
  frameOrigins: string[];
}

export async function embeddingSettingsOf(db: Queryable, workspaceId: string): Promise<EmbeddingSettings> {
  const { rows } = await db.query<{ frame_origins: string[] }>(
    "SELECT frame_origins FROM embedding_settings WHERE workspace_id = $1",
    [workspaceId],
  );
  return { frameOrigins: rows[0]?.frame_origins ?? [] };
}

/** The origins a caller gave, as they are compared; INVALID_ARGUMENT naming each that is not one. */
function frameOriginsOf(given: string[]): string[] {
  const violations: FieldViolation[] = [];
  if (given.length > MAX_FRAME_ORIGINS)
    violations.push({ path: "frameOrigins", message: `must list at most ${MAX_FRAME_ORIGINS} origins` });
  const origins: string[] = [];
  given.slice(0, MAX_FRAME_ORIGINS).forEach((text, i) => {
    const parsed = frameOriginOf(text);
    if ("message" in parsed) violations.push({ path: `frameOrigins[${i}]`, message: parsed.message });
    else if (origins.includes(parsed.origin))
      violations.push({ path: `frameOrigins[${i}]`, message: `lists ${parsed.origin} a second time` });
    else origins.push(parsed.origin);
  });
  if (violations.length > 0) throw validationError(violations, "the embedding settings are not valid");
  return origins;
}

export async function updateEmbeddingSettings(
  db: Queryable,
  workspaceId: string,
  settings: EmbeddingSettingsMessage | undefined,
): Promise<EmbeddingSettings> {
  const frameOrigins = frameOriginsOf(settings?.frameOrigins ?? []);
  await db.query(
    `INSERT INTO embedding_settings (workspace_id, frame_origins) VALUES ($1, $2)
     ON CONFLICT (workspace_id) DO UPDATE SET frame_origins = $2, updated_at = now()`,
    [workspaceId, frameOrigins],
  );
  return { frameOrigins };
}

/**
 * The origin an embedded URL is made for, as compared; INVALID_ARGUMENT at `frameOrigin` unless it
 * is one of the workspace's.
 */
export async function allowedFrameOrigin(db: Queryable, workspaceId: string, text: string): Promise<string> {
  const allowed = listedFrameOrigin(text, (await embeddingSettingsOf(db, workspaceId)).frameOrigins);
  if ("message" in allowed) throw validationError([{ path: "frameOrigin", message: allowed.message }]);
  return allowed.origin;
}

/** The settings of every workspace, as the API reads and replaces them. */
export class EmbeddingSettingsBook {
  constructor(private readonly db: Database) {}

  get(workspaceId: string): Promise<EmbeddingSettings> {
    return embeddingSettingsOf(this.db, workspaceId);
  }

  update(workspaceId: string, settings: EmbeddingSettingsMessage | undefined): Promise<EmbeddingSettings> {
    return updateEmbeddingSettings(this.db, workspaceId, settings);
  }
}
