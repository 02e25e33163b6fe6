/**
 * Read-your-writes for requests made from templates. The requests service makes them from its own
 * copies of templates, which events keep up to date a moment after each change; this gateway notes
 * the version each template change through it made, and a request from that template asks for a copy
 * at least that new, so a caller that changes a template and then uses it always gets its change.
 * A change through another replica is seen once its event arrives (milliseconds after its commit).
 */
import type { Client } from "@connectrpc/connect";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type {
  Template,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";

export interface TemplateVersionsOptions {
  /**
   * How long a change is remembered (60 s): longer than the requests service keeps a copy no event
   * confirmed, so once it is forgotten no older copy can be used.
   */
  rememberMs?: number;
  /** Changes remembered; the oldest goes first (10,000). */
  maxTemplates?: number;
}

interface Change {
  version: bigint;
  at: number;
}

export class TemplateVersions {
  private readonly changes = new Map<string, Change>();
  private readonly rememberMs: number;
  private readonly maxTemplates: number;

  constructor(options: TemplateVersionsOptions = {}) {
    this.rememberMs = options.rememberMs ?? 60_000;
    this.maxTemplates = options.maxTemplates ?? 10_000;
  }

  /** The templates client, noting the version each write answers. */
  noting(templates: Client<typeof TemplatesService>): Client<typeof TemplatesService> {
    const noted = <A extends { template?: Template }>(answer: A): A => {
      if (answer.template)
        this.note(answer.template.workspaceId, answer.template.id, answer.template.version);
      return answer;
    };
    return {
      ...templates,
      createTemplate: async (request, options) => noted(await templates.createTemplate(request, options)),
      updateTemplate: async (request, options) => noted(await templates.updateTemplate(request, options)),
      deleteTemplate: async (request, options) => {
        const answer = await templates.deleteTemplate(request, options);
        this.note(request.workspaceId ?? "", request.templateId ?? "", answer.version);
        return answer;
      },
    };
  }

  /** The requests client, asking for a template at least as new as the last change noted. */
  asking(requests: Client<typeof RequestsService>): Client<typeof RequestsService> {
    return {
      ...requests,
      createSignatureRequest: (request, options) =>
        requests.createSignatureRequest(
          {
            ...request,
            templateVersionAtLeast: this.versionOf(request.workspaceId ?? "", request.templateId ?? ""),
          },
          options,
        ),
      startBulkSend: (request, options) =>
        requests.startBulkSend(
          {
            ...request,
            templateVersionAtLeast: this.versionOf(request.workspaceId ?? "", request.templateId ?? ""),
          },
          options,
        ),
    };
  }

  private note(workspaceId: string, templateId: string, version: bigint): void {
    const key = `${workspaceId}/${templateId}`;
    this.changes.delete(key);
    this.changes.set(key, { version, at: Date.now() });
    if (this.changes.size > this.maxTemplates)
      this.changes.delete(this.changes.keys().next().value as string);
  }

  private versionOf(workspaceId: string, templateId: string): bigint {
    if (!templateId) return 0n;
    const change = this.changes.get(`${workspaceId}/${templateId}`);
    return change && Date.now() - change.at < this.rememberMs ? change.version : 0n;
  }
}
