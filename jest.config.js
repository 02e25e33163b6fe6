/** One jest run for every package: unit tests beside the code, cross-service suites in test/. */
export default {
  testEnvironment: "node",
  // Suites start whole deployments; single steps may take seconds on a 2-core machine.
  testTimeout: 60_000,
  extensionsToTreatAsEsm: [".ts"],
  transform: {
    "^.+\\.ts$": [
      "@swc/jest",
      { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } },
    ],
  },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["**/test/**/*.test.ts", "**/src/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/data/"],
};
