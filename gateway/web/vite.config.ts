import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { compression } from "vite-plugin-compression2";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The @fontsource style sheets with their WOFF fallbacks left out: every browser the pages support
 * takes WOFF2, so the WOFF files were never fetched, yet made the sheets' rules a third longer and
 * the built pages (and the image) carry every font twice.
 */
const woff2Only: Plugin = {
  name: "fontsource-woff2-only",
  enforce: "pre",
  transform(css, id) {
    if (!/[\\/]@fontsource[\\/].*\.css$/.test(id)) return undefined;
    return { code: css.replace(/,\s*url\([^)]*\.woff\)\s*format\(["']woff["']\)/g, ""), map: null };
  },
};

/** The web apps, one build each (`--mode sign`, `console` or `verify`): the gateway serves each at /{mode}/. */
const APPS: Record<string, string> = { sign: "./signing", console: "./console", verify: "./verify" };

export default defineConfig(({ mode }) => {
  const root = APPS[mode];
  if (!root) throw new Error(`build with --mode ${Object.keys(APPS).join(" or --mode ")}`);
  return {
    root: here(root),
    base: `/${mode}/`,
    // Every script and style sheet also as .br and .gz, which the gateway sends to browsers that take
    // them (web-app.ts): a third of the bytes on a phone's network, compressed once at build time.
    plugins: [woff2Only, react(), compression({ threshold: 1024, logLevel: "silent" })],
    publicDir: false,
    build: {
      outDir: here(`./dist/${mode}`),
      emptyOutDir: true,
      assetsDir: "assets",
      sourcemap: false,
      chunkSizeWarningLimit: 1500,
    },
  };
});
