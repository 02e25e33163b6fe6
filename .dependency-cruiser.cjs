/**
 * The floors of the house, checked in `npm run lint` (dependency-cruiser): the kit holds mechanisms
 * and knows no service; the domain knows only the kit and the generated contracts; a service reaches
 * another only through its contract (gen) and the shared floors below; the gateway reaches services
 * only through their contracts, and leaves reading PDFs to the documents service; the web apps reach
 * no server code but the domain's browser entry. No module imports itself back through others (a
 * circle), in product code or tests.
 */
const SERVICES = "(auth|documents|requests|templates|webhooks)";
/** The requests service's features: each a folder above its core, none importing another. */
const REQUESTS_FEATURES = "creation|sending|signing|completion|bulk-send|retention|verification|notices";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A circle of imports: the modules cannot be read, tested or moved one at a time.",
      severity: "error",
      from: { path: "^(services|gateway)/" },
      to: { circular: true },
    },
    {
      name: "kit-knows-no-service",
      comment: "services/kit holds mechanisms only: it imports no service, no domain rule, no gateway code.",
      severity: "error",
      from: { path: "^services/kit/src/" },
      to: { path: ["^services/(?!kit/)", "^gateway/"] },
    },
    {
      name: "domain-below-services",
      comment: "The domain is shared knowledge: it imports the kit and the generated contracts, no service.",
      severity: "error",
      from: { path: "^services/domain/src/" },
      to: { path: [`^services/${SERVICES}/`, "^gateway/"] },
    },
    {
      name: "services-meet-through-contracts",
      comment: "A service reaches another through its gRPC contract (gen/), never its source.",
      severity: "error",
      from: { path: `^services/${SERVICES}/src/` },
      to: { path: `^services/${SERVICES}/`, pathNot: "^services/$1/" },
    },
    {
      name: "gateway-through-contracts",
      comment: "The gateway translates HTTP into service calls: it reaches no service's source.",
      severity: "error",
      from: { path: "^gateway/src/" },
      to: { path: `^services/${SERVICES}/` },
    },
    {
      name: "gateway-reads-no-pdf",
      comment:
        "The documents service keeps the bytes and reads their text (FindText): the gateway downloads no document to parse it with pdf.js.",
      severity: "error",
      from: { path: "^gateway/src/" },
      to: { path: "(^|/)node_modules/pdfjs-dist/" },
    },
    {
      name: "web-apps-reach-no-server-code",
      comment:
        "The web apps run in a browser: no server module, and the domain only through @countersign/domain/web.",
      severity: "error",
      from: { path: "^gateway/web/" },
      to: { path: ["^gateway/src/", "^services/(?!domain/src/web\\.ts$)"] },
    },
    {
      name: "requests-core-below-features",
      comment:
        "The requests service's core (state machine, stores, routing, queues) knows no feature, no PDF work and not the wiring above it.",
      severity: "error",
      from: { path: `^services/requests/src/core/` },
      to: { path: "^services/requests/src/", pathNot: "^services/requests/src/core/" },
    },
    {
      name: "requests-pdf-below-features",
      comment:
        "The requests service's PDF work (drawing, sealing, reading signatures) builds on the core alone.",
      severity: "error",
      from: { path: "^services/requests/src/pdf/" },
      to: { path: "^services/requests/src/", pathNot: "^services/requests/src/(core|pdf)/" },
    },
    {
      name: "requests-features-never-meet",
      comment:
        "A feature of the requests service (creation, sending, signing, …) builds on the core and the PDF work, never on a sibling: the wiring (service.ts) hands it what it needs of another.",
      severity: "error",
      from: { path: `^services/requests/src/(${REQUESTS_FEATURES})/` },
      to: { path: "^services/requests/src/", pathNot: "^services/requests/src/($1|core|pdf)/" },
    },
    {
      name: "requests-folders-known",
      comment:
        "Every module of the requests service sits in the core, the PDF work, a feature, or the wiring at its root.",
      severity: "error",
      from: { path: "^services/requests/src/[^/]+/" },
      to: {
        path: "^services/requests/src/[^/]+/",
        pathNot: `^services/requests/src/(core|pdf|${REQUESTS_FEATURES})/`,
      },
    },
  ],
  options: {
    // Packages are kept as leaves, not followed, so that a rule can name one (gateway-reads-no-pdf).
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(gen|dist|data)/" },
    // Workspace packages are followed to their source, so a floor is checked where it is crossed.
    combinedDependencies: false,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
