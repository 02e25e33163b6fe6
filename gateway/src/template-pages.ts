/**
 * Pages of templates the gateway keeps, so that a workspace that lists its templates often costs the
 * templates service one call per change instead of one per request. A template write through this
 * gateway forgets its workspace's pages when the write ends; a write through another replica, when
 * its TemplateChanged event arrives, which the outbox relays as soon as the write commits. Pages also
 * expire after a short time: that bounds how long one can outlive a change whose event was lost.
 */
import { fromBinary, type MessageInitShape } from "@bufbuild/protobuf";
import type { CallOptions, Client } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { TemplateChangedSchema } from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import type {
  ListTemplatesRequestSchema,
  ListTemplatesResponse,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { EventBus, Unsubscribe } from "@countersign/kit";

export interface TemplatePagesOptions {
  ttlMs?: number;
  /**
   * Templates held by all pages together (an empty page counts as one), which bounds the memory
   * kept whatever the page sizes; the workspace that listed least lately is dropped first.
   */
  maxTemplates?: number;
  /** Pages kept of one workspace (each page index and size is one). */
  maxPagesPerWorkspace?: number;
}

interface Page {
  /** Shared by every caller it is served to: read only. */
  response: ListTemplatesResponse;
  expiresAt: number;
}

const weight = (page: Page) => Math.max(1, page.response.templates.length);

export class TemplatePages {
  private readonly workspaces = new Map<string, Map<string, Page>>();
  /** Counts changes seen, so that a page asked for before one is not kept after it. */
  private changes = 0;
  /** The weight of every page kept, against maxTemplates. */
  private held = 0;
  private readonly ttlMs: number;
  private readonly maxTemplates: number;
  private readonly maxPagesPerWorkspace: number;
  /** The templates client with lists answered from the pages kept and writes forgetting them. */
  readonly client: Client<typeof TemplatesService>;

  constructor(
    private readonly templates: Client<typeof TemplatesService>,
    options: TemplatePagesOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxTemplates = options.maxTemplates ?? 5_000;
    this.maxPagesPerWorkspace = options.maxPagesPerWorkspace ?? 20;
    // A write that fails may still have committed (a deadline passed after the commit): either way
    // the workspace's pages are forgotten when the call ends.
    const forgettingAfter = <T>(workspaceId: string | undefined, call: Promise<T>): Promise<T> =>
      call.finally(() => this.forgetWorkspace(workspaceId ?? ""));
    this.client = {
      getTemplate: (request, options) => templates.getTemplate(request, options),
      listTemplates: (request, options) => this.list(request, options),
      createTemplate: (request, options) =>
        forgettingAfter(request.template?.workspaceId, templates.createTemplate(request, options)),
      updateTemplate: (request, options) =>
        forgettingAfter(request.template?.workspaceId, templates.updateTemplate(request, options)),
      deleteTemplate: (request, options) =>
        forgettingAfter(request.workspaceId, templates.deleteTemplate(request, options)),
    };
  }

  /** Listens for the templates service's events; returns what stops listening. */
  listen(bus: EventBus): Promise<Unsubscribe> {
    return bus.listen(subjects.templateChanged, (msg) =>
      this.forgetWorkspace(fromBinary(TemplateChangedSchema, msg.data).workspaceId),
    );
  }

  private forgetWorkspace(workspaceId: string): void {
    this.changes += 1;
    this.drop(workspaceId);
  }

  private async list(
    request: MessageInitShape<typeof ListTemplatesRequestSchema>,
    options: CallOptions | undefined,
  ): Promise<ListTemplatesResponse> {
    const workspaceId = request.workspaceId ?? "";
    const pageKey = `${request.pageIndex ?? 0}:${request.pageSize ?? 0}`;
    const kept = this.workspaces.get(workspaceId)?.get(pageKey);
    if (kept && kept.expiresAt > Date.now()) return kept.response;
    const changesBefore = this.changes;
    const response = await this.templates.listTemplates(request, options);
    if (changesBefore === this.changes) this.keep(workspaceId, pageKey, response);
    return response;
  }

  private keep(workspaceId: string, pageKey: string, response: ListTemplatesResponse): void {
    let pages = this.workspaces.get(workspaceId);
    // Maps iterate in insertion order: re-inserting makes this workspace the last to be dropped.
    if (pages) this.workspaces.delete(workspaceId);
    else pages = new Map();
    this.workspaces.set(workspaceId, pages);
    this.dropPage(pages, pageKey);
    const page = { response, expiresAt: Date.now() + this.ttlMs };
    pages.set(pageKey, page);
    this.held += weight(page);
    if (pages.size > this.maxPagesPerWorkspace) this.dropPage(pages, pages.keys().next().value as string);
    for (const leastLately of this.workspaces.keys()) {
      if (this.held <= this.maxTemplates || leastLately === workspaceId) break;
      this.drop(leastLately);
    }
  }

  private dropPage(pages: Map<string, Page>, pageKey: string): void {
    const page = pages.get(pageKey);
    if (!page) return;
    this.held -= weight(page);
    pages.delete(pageKey);
  }

  private drop(workspaceId: string): void {
    const pages = this.workspaces.get(workspaceId);
    if (!pages) return;
    for (const page of pages.values()) this.held -= weight(page);
    this.workspaces.delete(workspaceId);
  }
}
