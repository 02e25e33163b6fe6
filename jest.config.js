/** One jest run for every package: unit tests beside the code, cross-service suites in test/. */
export default {
  testEnvironment: "node",
  // Suites start whole deployments; single steps may take seconds on a 2-core machine.
  testTimeout: 60_000,
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": "<rootDir>/scripts/jest-transform.js" },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["**/test/**/*.test.ts", "**/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/data/"],
};
