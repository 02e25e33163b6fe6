import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * `@countersign/embed` as npm publishes it: ES modules for browsers and bundlers, one per entry, React
 * left to the app (a peer dependency). The declarations are tsc's (tsconfig.build.json).
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: here("./dist"),
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: here("./src/index.ts"),
        react: here("./src/react.tsx"),
        protocol: here("./src/protocol.ts"),
      },
      formats: ["es"],
    },
    rollupOptions: { external: ["react", "react/jsx-runtime"] },
  },
});
