/**
 * Which seal a completion is sealed with: the workspace's own, where an Organization Admin uploaded
 * one, else the deployment's. Asked at every completion, so a replaced or removed seal is used from
 * the next one on every sealing process; a file is opened once and kept while its row is unchanged.
 */
import type { Queryable, SecretBox } from "@countersign/kit";
import { LRUCache } from "lru-cache";
import type { TimestampAuthority } from "../pdf/pades/timestamp-client.js";
import { Seal } from "../pdf/seal.js";
import { unpackSeal } from "./seal-certificates.js";

interface OwnSealRow {
  sealed_pkcs12: Uint8Array;
  sha256_fingerprint: string;
  uploaded_at: Date;
}

/** A workspace's own seal that cannot be opened: its message is for the workspace's administrators. */
export class SealUnavailable extends Error {}

export class SealChoice {
  /** Opened seals by workspace, with the upload they were opened from. */
  private readonly opened = new LRUCache<string, { upload: string; seal: Seal }>({ max: 1000 });

  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    /** The deployment's seal, from configuration. */
    readonly deployment: Seal,
    private readonly authority: TimestampAuthority | undefined,
  ) {}

  /**
   * Throws a sentence when the workspace's seal cannot be opened (the link secret changed): its
   * documents wait rather than leave sealed with another's certificate.
   */
  async forWorkspace(workspaceId: string): Promise<Seal> {
    const { rows } = await this.db.query<OwnSealRow>(
      "SELECT sealed_pkcs12, sha256_fingerprint, uploaded_at FROM workspace_seals WHERE workspace_id = $1",
      [workspaceId],
    );
    const own = rows[0];
    if (!own) {
      this.opened.delete(workspaceId);
      return this.deployment;
    }
    const upload = `${own.sha256_fingerprint}@${own.uploaded_at.getTime()}`;
    const kept = this.opened.get(workspaceId);
    if (kept?.upload === upload) return kept.seal;
    let seal: Seal;
    try {
      seal = new Seal(unpackSeal(this.box.open(own.sealed_pkcs12, workspaceId)), this.authority);
    } catch (err) {
      throw new SealUnavailable(
        `the workspace's own seal cannot be opened (${(err as Error).message}); an Organization Admin uploads it again in Settings → Developer → Configuration`,
      );
    }
    this.opened.set(workspaceId, { upload, seal });
    return seal;
  }
}
