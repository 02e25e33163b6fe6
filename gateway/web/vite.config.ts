import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The signing page is served by the gateway at /sign/, its assets under /sign/assets/.
export default defineConfig({
  root: here("./signing"),
  base: "/sign/",
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: here("./dist"),
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});
