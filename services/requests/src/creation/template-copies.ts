/**
 * The templates requests are made from, kept in this replica: each TemplateChanged event brings the
 * template as its change left it, so creating a request from a template costs no call to the
 * templates service once the template is known here. The templates service is asked when no copy is
 * here, when the copy is older than the caller's own last change to the template (the gateway passes
 * that version: a caller always sees what it wrote), and when the copy has not been confirmed for
 * `maxAgeMs`, which bounds how long a copy can outlive a change whose event was lost (events heard by
 * `listen` are not delivered again).
 */
import { fromBinary } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { TemplateChangedSchema } from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import type {
  Template,
  TemplatesService,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import type { EventBus, Unsubscribe } from "@countersign/kit";
import { LRUCache } from "lru-cache";

export interface TemplateCopiesOptions {
  /** How long a copy is used without an event or a call confirming it (30 s). */
  maxAgeMs?: number;
  /** Copies kept; the one used least lately goes first (10,000). */
  maxTemplates?: number;
}

interface Copy {
  version: bigint;
  /** Absent once the template is deleted: the copy then says so, at its version. */
  template: Template | undefined;
}

/** What a caller is told when the template does not exist (any more) in its workspace. */
export class TemplateNotFound extends Error {
  constructor() {
    super("there is no such template in this workspace");
  }
}

const keyOf = (workspaceId: string, templateId: string) => `${workspaceId}/${templateId}`;

export class TemplateCopies {
  /** Copies by workspace and template, each used until `maxAgeMs` after it was last confirmed. */
  private readonly copies: LRUCache<string, Copy>;
  /** Calls to the templates service under way, one per template however many requests wait on it. */
  private readonly asking = new Map<string, Promise<Template>>();

  constructor(
    private readonly templates: Client<typeof TemplatesService>,
    { maxAgeMs = 30_000, maxTemplates = 10_000 }: TemplateCopiesOptions = {},
  ) {
    this.copies = new LRUCache({ max: maxTemplates, ttl: maxAgeMs });
  }

  /** Listens for the templates service's events; returns what stops listening. */
  listen(bus: EventBus): Promise<Unsubscribe> {
    return bus.listen(subjects.templateChanged, (msg) => {
      const changed = fromBinary(TemplateChangedSchema, msg.data);
      const key = keyOf(changed.workspaceId, changed.templateId);
      // An event without a version (a templates service from before them) only says the copy is old.
      if (changed.version === 0n) this.copies.delete(key);
      else this.keep(key, changed.version, changed.deleted ? undefined : changed.template);
    });
  }

  /**
   * The template as it is now, or as a change at least as new as `versionAtLeast` left it.
   * @throws TemplateNotFound when it does not exist in the workspace.
   */
  async get(workspaceId: string, templateId: string, versionAtLeast = 0n): Promise<Template> {
    const key = keyOf(workspaceId, templateId);
    const copy = this.copies.get(key);
    if (copy && copy.version >= versionAtLeast) {
      if (!copy.template) throw new TemplateNotFound();
      return copy.template;
    }
    // A call under way began before this caller's change may have: only a copy it answers that is
    // new enough serves.
    const template = await (this.asking.get(key) ?? this.ask(key, workspaceId, templateId));
    return template.version >= versionAtLeast ? template : this.ask(key, workspaceId, templateId);
  }

  private ask(key: string, workspaceId: string, templateId: string): Promise<Template> {
    const call = this.templates
      .getTemplate({ workspaceId, templateId })
      .then(({ template }) => {
        if (!template) throw new Error("the templates service answered without a template");
        this.keep(key, template.version, template);
        return template;
      })
      .catch((err: unknown) => {
        if (err instanceof ConnectError && err.code === Code.NotFound) throw new TemplateNotFound();
        throw err;
      })
      .finally(() => {
        if (this.asking.get(key) === call) this.asking.delete(key);
      });
    this.asking.set(key, call);
    return call;
  }

  /** Keeps what a change or a call made known, unless a newer change is already here. */
  private keep(key: string, version: bigint, template: Template | undefined): void {
    const copy = this.copies.peek(key, { allowStale: true });
    if (copy && copy.version > version) return;
    this.copies.set(key, { version, template });
  }
}
