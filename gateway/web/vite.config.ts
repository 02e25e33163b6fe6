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

/**
 * The head every page starts with, before what its own index.html adds (its title): the character
 * set, the width of a phone's screen, no address sent on to the sites it links to, no favicon
 * fetched, light colours only; and, on a page whose address is a secret or behind a log-in, no
 * place in a search engine's index.
 */
const pageHead = (listed: boolean): Plugin => {
  const first = (tag: string, attrs: Record<string, string>) => ({
    tag,
    attrs,
    injectTo: "head-prepend" as const,
  });
  return {
    name: "countersign-page-head",
    transformIndexHtml: () => [
      first("meta", { charset: "utf-8" }),
      first("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      first("meta", { name: "referrer", content: "no-referrer" }),
      ...(listed ? [] : [first("meta", { name: "robots", content: "noindex" })]),
      first("meta", { name: "color-scheme", content: "light" }),
      first("link", { rel: "icon", href: "data:," }),
    ],
  };
};

/**
 * The web apps, one build each (`--mode sign`, `console` or `verify`): the gateway serves each at
 * /{mode}/. Only the verification page may be listed by search engines.
 */
const APPS: Record<string, { root: string; listed: boolean }> = {
  sign: { root: "./signing", listed: false },
  console: { root: "./console", listed: false },
  verify: { root: "./verify", listed: true },
};

export default defineConfig(({ mode }) => {
  const app = APPS[mode];
  if (!app) throw new Error(`build with --mode ${Object.keys(APPS).join(" or --mode ")}`);
  return {
    root: here(app.root),
    base: `/${mode}/`,
    // Every script and style sheet also as .br and .gz, which the gateway sends to browsers that take
    // them (web-app.ts): a third of the bytes on a phone's network, compressed once at build time.
    plugins: [pageHead(app.listed), woff2Only, react(), compression({ threshold: 1024, logLevel: "silent" })],
    publicDir: false,
    // The repository's own packages (@countersign/embed's protocol) from their sources, not a build.
    resolve: { conditions: ["countersign-source", "module", "browser", "development|production"] },
    build: {
      outDir: here(`./dist/${mode}`),
      emptyOutDir: true,
      assetsDir: "assets",
      sourcemap: false,
      chunkSizeWarningLimit: 1500,
    },
  };
});
