/**
 * The one message that may show a generated password: printed straight to stdout, once, on the
 * first start, never through the logger (whose lines are kept and shipped).
 */
export function firstStartBanner(created: {
  workspaceId: string;
  adminEmail: string;
  generatedPassword: string;
}): string {
  const lines = [
    "Countersign: first start — created the default workspace and its Organization Admin.",
    `  Account ID: ${created.workspaceId}`,
    `  Admin:      ${created.adminEmail}`,
    created.generatedPassword
      ? `  Password:   ${created.generatedPassword}   (generated; shown this once — set COUNTERSIGN_ADMIN_PASSWORD to choose one)`
      : "  Password:   as set in COUNTERSIGN_ADMIN_PASSWORD",
  ];
  return `\n${lines.join("\n")}\n\n`;
}
