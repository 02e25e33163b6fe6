/** One jest run for every package: unit tests beside the code, cross-service suites in test/. */
export default {
  testEnvironment: "node",
  // Suites start whole deployments; single steps may take seconds on a 2-core machine.
  testTimeout: 60_000,
  // Two suites at a time, each in a worker process that is replaced once it holds 1 GB: one process
  // running every suite in turn (jest's choice on two cores) grew until single suites ran 4–6 times
  // slower than alone (the outbox's 10 s took 66).
  maxWorkers: 2,
  globalSetup: "<rootDir>/scripts/jest-global-setup.js",
  workerIdleMemoryLimit: "800MB",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": "<rootDir>/scripts/jest-transform.js" },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testMatch: ["**/test/**/*.test.ts", "**/src/**/*.test.ts", "**/web/**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/data/"],
};
