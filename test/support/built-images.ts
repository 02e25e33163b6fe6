/**
 * The images deploy/docker/build-images.sh builds from this tree, as the suites and the benchmark
 * find them in podman's store: whether they are there, and what each weighs against its base.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The default image (every component but the converter) and the converter's, as the dev overlay names them. */
export const IMAGES = {
  countersign: "ghcr.io/countersign/countersign:dev",
  converter: "ghcr.io/countersign/countersign-converter:dev",
} as const;

/** The base both are built on (node-base.sh's stand-in where no registry is reached). */
export const BASE_IMAGE = "docker.io/library/node:24-bookworm-slim";

/** The most the default image may add to its base (issue 58): the application and its packages. */
export const ADDED_BYTES_BUDGET = 250 * 1000 * 1000;

/** podman's default open-files limit is above this machine's hard one, which runc refuses. */
export const ENGINE_FLAGS = ["--ulimit", "nofile=20000:20000", "--ulimit", "nproc=1024:1024"];

export const podman = async (...args: string[]) =>
  (await run("podman", args, { maxBuffer: 64 * 1024 * 1024, timeout: 180_000 })).stdout.trim();

/** Whether both images are built; where they are not, a suite says so (and fails under CI). */
export function imagesBuilt(suite: string): boolean {
  const built = Object.values(IMAGES).every((image) => {
    try {
      execFileSync("podman", ["image", "exists", image], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
  if (!built) {
    const message = `${suite} needs the images: run deploy/docker/build-images.sh (${Object.values(IMAGES).join(", ")})`;
    if (process.env.CI) throw new Error(message);
    console.warn(`\n!!! SKIPPING ${suite}: ${message}\n`);
  }
  return built;
}

export interface ImageSize {
  image: string;
  bytes: number;
  /** What it adds to the base. */
  addedBytes: number;
}

export async function imageSizes(): Promise<ImageSize[]> {
  const size = async (image: string) =>
    Number(await podman("image", "inspect", "--format", "{{.Size}}", image));
  const base = await size(BASE_IMAGE);
  return Promise.all(
    Object.values(IMAGES).map(async (image) => {
      const bytes = await size(image);
      return { image, bytes, addedBytes: bytes - base };
    }),
  );
}
