/**
 * Builds the auth service from its adapters: applies migrations, wires the domain modules, the
 * outbox relay and the consumer of API call records. Knows nothing of how it is served.
 */
import { fileURLToPath } from "node:url";
import { fromBinary } from "@bufbuild/protobuf";
import { subjects } from "@countersign/domain";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  CompletionAttemptFailedSchema,
  EmailDeliveryFailedSchema,
  SealCertificateExpiringSchema,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { ApiCallsRecordedSchema } from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import {
  type Database,
  type EventBus,
  type Logger,
  type Mailer,
  migrate,
  type Network,
  OutboxRelay,
  outboxTrack,
  SecretBox,
  type ServiceModule,
  type Unsubscribe,
} from "@countersign/kit";
import { linkEmails } from "./account-emails.js";
import { Accounts } from "./accounts.js";
import { ApiCallRecords } from "./api-calls.js";
import { ApiKeys } from "./api-keys.js";
import { AuthEmails } from "./auth-emails.js";
import { EmbeddedViews } from "./embedded-views.js";
import { IdempotencyKeys } from "./idempotency-keys.js";
import { IdentityProviders } from "./identity-providers.js";
import { Integrations } from "./integrations.js";
import { composeLockoutNotice, queueLockoutNotice } from "./lockout-notices.js";
import { LoginThrottle, type LoginThrottlePolicies } from "./login-throttle.js";
import { Passwords } from "./passwords.js";
import { authRoutes } from "./routes.js";
import { composeSealExpiryNotice, queueSealExpiryNotices } from "./seal-expiry-notices.js";
import { apiKeyHasher, linkTokens } from "./secrets.js";
import { SingleSignOn } from "./single-sign-on.js";
import { Team } from "./team.js";

export interface AuthDeps {
  db: Database;
  bus: EventBus;
  logger: Logger;
  /**
   * The key for hashing API key secrets, and from which the key sealing single sign-on client
   * secrets is derived; changing it invalidates every key and every stored client secret.
   */
  keyPepper: string;
  /** Creates the first workspace and admin on a first start; the result is reported once. */
  bootstrap?: {
    workspaceName: string;
    adminEmail: string;
    adminPassword?: string;
    report: (created: { workspaceId: string; adminEmail: string; generatedPassword: string }) => void;
  };
  apiCallFlushIntervalMs?: number;
  /** Where the e-mails go: a lock-out notice, an invitation, a password reset link. */
  mailer: Mailer;
  /** The console's public base URL, which invitation and password reset links start with. */
  publicUrl: string;
  /** How many failed log-ins lock an account or an address, and for how long (DEFAULT_LOGIN_THROTTLE). */
  loginThrottle?: LoginThrottlePolicies;
  /** The only process on this database (standalone): outbox claims of a killed process are released at start. */
  onlyReplica?: boolean;
  /** Networks identity providers may be on although not public (COUNTERSIGN_IDENTITY_PROVIDER_ALLOW_NETWORKS). */
  identityProviderNetworks?: readonly Network[];
}

export interface AuthModule extends ServiceModule {
  accounts: Accounts;
  apiKeys: ApiKeys;
  team: Team;
  /** Resolves when no lock-out, invitation, reset or seal expiry e-mail is being sent (tests wait on it). */
  noticesIdle(): Promise<void>;
}

const MIGRATIONS = { name: "auth", dir: fileURLToPath(new URL("../migrations", import.meta.url)) };

export async function buildAuth(deps: AuthDeps): Promise<AuthModule> {
  const { db, bus, logger } = deps;
  await migrate(db, [outboxTrack, MIGRATIONS]);
  const relay = new OutboxRelay(db, bus, logger, { name: "auth outbox", onlyReplica: deps.onlyReplica });
  const eventsWritten = () => relay.kick();
  const passwords = new Passwords();
  const linkToken = linkTokens(deps.keyPepper);
  const linkEmail = linkEmails({ publicUrl: deps.publicUrl, linkToken });
  const emails = new AuthEmails(db, deps.mailer, logger, {
    lockout: composeLockoutNotice,
    invitation: linkEmail("invitation"),
    password_reset: linkEmail("password_reset"),
    seal_expiry: composeSealExpiryNotice(`${deps.publicUrl}/console`),
  });
  const throttle = new LoginThrottle(db, deps.loginThrottle);
  const accounts = new Accounts({
    db,
    eventsWritten,
    passwords,
    throttle,
    accountLocked: async (tx, lock) => {
      logger.warn(
        { userId: lock.userId, lockedUntil: lock.lockedUntil.toISOString(), failures: lock.failures },
        "account locked after failed log-ins",
      );
      await queueLockoutNotice(emails, tx, lock);
    },
    lockNoticesQueued: () => emails.sendQueued(),
  });
  const hashSecret = apiKeyHasher(deps.keyPepper);
  const apiKeys = new ApiKeys({ db, hashSecret, eventsWritten });
  const integrations = new Integrations({ db, hashSecret, eventsWritten });
  const embeddedViews = new EmbeddedViews({ db, hashSecret });
  const team = new Team({
    db,
    accounts,
    passwords,
    throttle,
    linkToken,
    queueEmail: (tx, kind, refId) => emails.queue(tx, { kind, refId }),
    emailsQueued: () => emails.sendQueued(),
  });
  const providers = new IdentityProviders({ allowNetworks: deps.identityProviderNetworks, logger });
  const singleSignOn = new SingleSignOn({
    db,
    accounts,
    providers,
    // The pepper is the one secret auth is configured with; a key derived from it for this purpose
    // alone opens nothing else and is opened by nothing else.
    secrets: new SecretBox(deps.keyPepper, {
      purpose: "single sign-on client secrets v1",
      variable: "COUNTERSIGN_KEY_PEPPER",
    }),
    logger,
  });
  const apiCalls = new ApiCallRecords(db, logger, { flushIntervalMs: deps.apiCallFlushIntervalMs });
  const idempotencyKeys = new IdempotencyKeys(db, logger);
  const stopConsuming: Unsubscribe[] = [];

  return {
    serviceNames: [AuthService.typeName],
    routes: authRoutes({
      accounts,
      apiKeys,
      apiCalls,
      embeddedViews,
      idempotencyKeys,
      integrations,
      singleSignOn,
      team,
    }),
    accounts,
    apiKeys,
    team,
    noticesIdle: async () => {
      await emails.idle();
    },
    async ready() {
      await db.query("SELECT 1");
      await bus.ping();
    },
    async start() {
      if (deps.bootstrap) {
        const created = await accounts.bootstrap(deps.bootstrap);
        if (created) {
          deps.bootstrap.report({
            workspaceId: created.workspace.id,
            adminEmail: created.adminEmail,
            generatedPassword: created.generatedPassword,
          });
        }
      }
      relay.start();
      idempotencyKeys.start();
      emails.start();
      stopConsuming.push(
        await bus.consume(subjects.apiCallsRecorded, "auth-api-calls", (msg) =>
          apiCalls.record(fromBinary(ApiCallsRecordedSchema, msg.data)),
        ),
        await bus.consume(subjects.completionAttemptFailed, "auth-completion-failures", (msg) =>
          apiCalls.recordSealingFailure(fromBinary(CompletionAttemptFailedSchema, msg.data)),
        ),
        await bus.consume(subjects.emailDeliveryFailed, "auth-email-failures", (msg) =>
          apiCalls.recordEmailFailure(fromBinary(EmailDeliveryFailedSchema, msg.data)),
        ),
        await bus.consume(subjects.sealCertificateExpiring, "auth-seal-expiry", async (msg) => {
          if (await queueSealExpiryNotices(db, fromBinary(SealCertificateExpiringSchema, msg.data)))
            emails.kick();
        }),
      );
    },
    async stop() {
      for (const stop of stopConsuming.splice(0)) await stop();
      await apiCalls.stop();
      await idempotencyKeys.stop();
      await relay.stop();
      await emails.stop();
      passwords.close();
      providers.close();
    },
  };
}
