/**
 * The images as built from this tree (deploy/docker/build-images.sh): within their size budget, free
 * of development packages, running as the unprivileged `node` user, and each carrying a CycloneDX
 * bill of materials that names every package it holds at the version the lockfile pins.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ADDED_BYTES_BUDGET,
  ENGINE_FLAGS,
  IMAGES,
  imageSizes,
  imagesBuilt,
  podman,
} from "./support/built-images.js";
import { REPO } from "./support/deployments.js";

interface LockedPackage {
  version?: string;
  dev?: boolean;
  link?: boolean;
}
const lock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};
/** The packages hoisted to the top of node_modules, by name: what the images' /app/node_modules holds. */
const hoisted = Object.entries(lock.packages)
  .filter(([path, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.link)
  .map(([path, entry]) => ({ name: path.slice("node_modules/".length), ...entry }));

interface Component {
  group?: string;
  name: string;
  version: string;
  /** A package's own nested packages (a workspace's, or those npm could not hoist). */
  components?: Component[];
}
interface Bill {
  bomFormat: string;
  components: Component[];
}
const flatten = (components: Component[] = []): Component[] =>
  components.flatMap((c) => [c, ...flatten(c.components)]);

/** A command's output inside `image`, as its own user and nothing else. */
const inImage = (image: string, script: string) =>
  podman("run", "--rm", ...ENGINE_FLAGS, "--network", "none", "--entrypoint", '["sh"]', image, "-c", script);

const suite = imagesBuilt("the image checks") ? describe : describe.skip;

suite("the images built from this tree", () => {
  test("the default image adds at most 250 MB to its base", async () => {
    const sizes = await imageSizes();
    const countersign = sizes.find((size) => size.image === IMAGES.countersign);
    expect(countersign?.addedBytes).toBeLessThanOrEqual(ADDED_BYTES_BUDGET);
  });

  test.each(Object.entries(IMAGES))(
    "%s runs as uid 1000, holds no development package, and its CycloneDX bill lists each package it holds at the lockfile's version",
    async (_, image) => {
      const [uid, ...installed] = (
        await inImage(image, "id -u; cd /app/node_modules && ls -d * @*/* | grep -v '^@[^/]*$'")
      ).split("\n");
      expect(uid).toBe("1000");
      const locked = new Map(hoisted.map((p) => [p.name, p]));
      expect(installed.filter((name) => locked.get(name)?.dev)).toEqual([]);
      // The check sees the packages: production ones the servers load are there.
      expect(installed).toEqual(expect.arrayContaining(["pdf-lib", "@connectrpc/connect", "pg"]));

      const bill = JSON.parse(await inImage(image, "cat /app/sbom.cdx.json")) as Bill;
      expect(bill.bomFormat).toBe("CycloneDX");
      const listed = new Set(
        flatten(bill.components).map((c) => `${c.group ? `${c.group}/${c.name}` : c.name}@${c.version}`),
      );
      // The workspaces' own links (@countersign/*) are the application, not packages it took in.
      const unlisted = installed
        .filter((name) => !name.startsWith("@countersign/"))
        .map((name) => `${name}@${locked.get(name)?.version}`)
        .filter((pkg) => !listed.has(pkg));
      expect(unlisted).toEqual([]);
      const development = hoisted.filter((p) => p.dev).map((p) => `${p.name}@${p.version}`);
      expect(development.filter((pkg) => listed.has(pkg))).toEqual([]);
    },
    60_000,
  );
});
