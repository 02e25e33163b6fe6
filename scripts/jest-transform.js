// Jest transform for our TypeScript: esbuild strips the types (no type checking here; `npm run
// lint` runs tsc) and keeps ES modules. esbuild is already what tsx runs the code with.
import { transformSync } from "esbuild";

export default {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: "ts",
      format: "esm",
      target: "node24",
      sourcemap: "external",
      sourcefile: filename,
    });
    return { code, map };
  },
};
