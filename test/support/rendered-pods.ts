/**
 * A rendered overlay's pods as podman containers, each run as the kubelet would run it: the
 * container's command and args, its environment with every Secret and ConfigMap reference resolved,
 * its user and groups, a read-only root with only its volumes writable, its capabilities, its memory
 * and CPU limits, and its volumes (emptyDirs and Secrets as a pod sees them, shared by the pod's
 * containers). A field this file does not know how to honour is an error, not a silent difference:
 * the point is that what runs here is what a cluster would run.
 */
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The parts of Kubernetes objects read here. */
export interface ObjectMeta {
  name: string;
  labels?: Record<string, string>;
}
interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}
interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}
interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  fsGroup?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
  procMount?: string;
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  securityContext?: SecurityContext;
  resources?: { limits?: { memory?: string; cpu?: string } };
  volumeMounts?: VolumeMount[];
}
interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string };
  secret?: { secretName: string; defaultMode?: number; items?: { key: string; path: string }[] };
}
export interface PodSpec {
  hostUsers?: boolean;
  securityContext?: SecurityContext;
  initContainers?: Container[];
  containers: Container[];
  volumes?: Volume[];
}
export interface KubeObject {
  kind: string;
  metadata: ObjectMeta;
  data?: Record<string, string>;
  spec?: {
    template?: { metadata: ObjectMeta; spec: PodSpec };
    selector?: Record<string, string>;
    ports?: { port: number }[];
  };
}

/** Secrets (values decoded) and ConfigMaps of a rendering, by name. */
export class ConfigSources {
  private readonly secrets = new Map<string, Record<string, string>>();
  private readonly configMaps = new Map<string, Record<string, string>>();

  constructor(objects: readonly KubeObject[]) {
    for (const { kind, metadata, data = {} } of objects) {
      if (kind === "Secret") {
        const decoded = Object.entries(data).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]);
        this.secrets.set(metadata.name, Object.fromEntries(decoded));
      } else if (kind === "ConfigMap") {
        this.configMaps.set(metadata.name, data);
      }
    }
  }

  secret(name: string): Record<string, string> {
    const found = this.secrets.get(name);
    if (!found) throw new Error(`the rendering has no Secret ${name}`);
    return found;
  }

  /** The value a reference names; undefined for an optional one that is not there. */
  resolve(kind: "secret" | "configMap", ref: KeyRef): string | undefined {
    const source = (kind === "secret" ? this.secrets : this.configMaps).get(ref.name);
    const value = source?.[ref.key];
    if (value === undefined && !ref.optional)
      throw new Error(`the rendering has no ${kind} ${ref.name}/${ref.key}`);
    return value;
  }

  environment(container: Container): Record<string, string> {
    const env: Record<string, string> = {};
    for (const from of container.envFrom ?? []) {
      if (from.configMapRef) Object.assign(env, this.configMaps.get(from.configMapRef.name));
      else if (from.secretRef) Object.assign(env, this.secret(from.secretRef.name));
      else throw new Error(`${container.name}: an envFrom source this runner does not know`);
    }
    for (const variable of container.env ?? []) {
      const { secretKeyRef, configMapKeyRef, ...unknown } = variable.valueFrom ?? {};
      if (Object.keys(unknown).length > 0)
        throw new Error(
          `${container.name}: ${variable.name} comes from ${Object.keys(unknown)}, not run here`,
        );
      const value = secretKeyRef
        ? this.resolve("secret", secretKeyRef)
        : configMapKeyRef
          ? this.resolve("configMap", configMapKeyRef)
          : (variable.value ?? "");
      if (value !== undefined) env[variable.name] = value;
    }
    return env;
  }
}

/** Kubernetes quantities ("384Mi", "1Gi") in bytes. */
export function bytesOf(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(quantity);
  if (!match) throw new Error(`a memory quantity this runner does not read: ${quantity}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ""] ?? 1;
  return Number(match[1]) * unit;
}

/** Kubernetes CPU quantities ("1", "500m") in CPUs. */
function cpusOf(quantity: string): number {
  return quantity.endsWith("m") ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);
}

export interface PodPlacement {
  /** The podman network the pod joins, and the names it answers there (its Services'). */
  network: string;
  aliases: readonly string[];
  /** Names of peers outside the network and the address that stands for them (the host's, here). */
  hosts: Readonly<Record<string, string>>;
  /** Where the pod's volumes are made: a folder of its own. */
  volumesIn: string;
  /** The image to run for each image a container names. */
  imageFor: (image: string) => string;
  /** Flags this machine's engine needs on every run, nothing to do with the pod (ulimits within its hard ones). */
  engineFlags?: readonly string[];
  /** Container ports to publish on the host's loopback, by container name. */
  publish?: Readonly<Record<string, readonly number[]>>;
}

/**
 * `podman run` arguments for each container of a pod, init containers first (run to completion,
 * in order), then the pod's containers (detached). Container names are `<prefix>-<container>`.
 */
export function podmanRuns(
  prefix: string,
  pod: PodSpec,
  sources: ConfigSources,
  placement: PodPlacement,
): { init: string[][]; main: string[][] } {
  const volumes = makeVolumes(pod, sources, placement.volumesIn);
  const run = (container: Container, detached: boolean) =>
    containerRun(`${prefix}-${container.name}`, container, pod, sources, placement, volumes, detached);
  return {
    init: (pod.initContainers ?? []).map((container) => run(container, false)),
    main: pod.containers.map((container) => run(container, true)),
  };
}

/**
 * Each volume as a host folder, made once for the pod and mounted into every container that names
 * it. An emptyDir is a folder anyone may write (as the kubelet makes it), in memory where its
 * medium says so; a Secret is its files, owned by root and readable by the pod's fsGroup with the
 * mode the volume gives, as the kubelet sets them.
 */
function makeVolumes(pod: PodSpec, sources: ConfigSources, volumesIn: string): Map<string, string> {
  const paths = new Map<string, string>();
  const fsGroup = pod.securityContext?.fsGroup;
  for (const volume of pod.volumes ?? []) {
    const { name, emptyDir, secret, ...unknown } = volume;
    const rest = Object.keys(unknown);
    if (rest.length > 0) throw new Error(`volume ${name}: ${rest} volumes are not run here`);
    const path =
      emptyDir?.medium === "Memory"
        ? join("/dev/shm", `${volumesIn.replaceAll("/", "_")}-${name}`)
        : join(volumesIn, name);
    mkdirSync(path, { recursive: true });
    if (emptyDir) chmodSync(path, 0o1777);
    if (secret) {
      const values = sources.secret(secret.secretName);
      const items = secret.items ?? Object.keys(values).map((key) => ({ key, path: key }));
      // With an fsGroup the kubelet gives the group read access to every file of the volume.
      const mode = (secret.defaultMode ?? 0o644) | (fsGroup === undefined ? 0 : 0o040);
      for (const item of items) {
        const file = join(path, item.path);
        writeFileSync(file, values[item.key] ?? "");
        chownSync(file, 0, fsGroup ?? 0);
        chmodSync(file, mode);
      }
      chmodSync(path, 0o755);
    }
    paths.set(name, path);
  }
  return paths;
}

function containerRun(
  name: string,
  container: Container,
  pod: PodSpec,
  sources: ConfigSources,
  placement: PodPlacement,
  volumes: Map<string, string>,
  detached: boolean,
): string[] {
  const context = { ...pod.securityContext, ...container.securityContext };
  if (context.runAsNonRoot && !context.runAsUser)
    throw new Error(`${name}: runAsNonRoot without a runAsUser`);
  const args = [
    "run",
    detached ? "--detach" : "--rm",
    "--name",
    name,
    ...(placement.engineFlags ?? []),
    "--network",
    placement.network,
    ...placement.aliases.flatMap((alias) => ["--network-alias", alias]),
    ...Object.entries(placement.hosts).flatMap(([host, address]) => ["--add-host", `${host}:${address}`]),
    // What a pod's container gets that podman would otherwise add: nothing writable but its volumes.
    "--read-only-tmpfs=false",
    ...(context.readOnlyRootFilesystem ? ["--read-only"] : []),
    ...(context.runAsUser === undefined ? [] : ["--user", `${context.runAsUser}:${context.runAsGroup ?? 0}`]),
    ...(context.fsGroup === undefined ? [] : ["--group-add", String(context.fsGroup)]),
    ...(context.allowPrivilegeEscalation === false ? ["--security-opt", "no-new-privileges"] : []),
    ...(context.capabilities?.drop ?? []).flatMap((cap) => ["--cap-drop", cap.toLowerCase()]),
    ...(context.capabilities?.add ?? []).flatMap((cap) => ["--cap-add", cap.toLowerCase()]),
    ...seccomp(name, context.seccompProfile?.type),
    ...(context.procMount === "Unmasked" ? ["--security-opt", "unmask=ALL"] : []),
    // A pod of its own user namespace: podman's automatic one, ids mapped from /etc/subuid.
    ...(pod.hostUsers === false ? ["--userns", "auto"] : []),
    ...limits(container),
    ...(container.volumeMounts ?? []).flatMap((mount) => {
      const source = volumes.get(mount.name);
      if (!source) throw new Error(`${name}: mounts ${mount.name}, which the pod does not have`);
      return ["--volume", `${source}:${mount.mountPath}:${mount.readOnly ? "ro" : "rw"}`];
    }),
    ...Object.entries(sources.environment(container)).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    ...(placement.publish?.[container.name] ?? []).flatMap((port) => ["--publish", `127.0.0.1::${port}`]),
  ];
  // The kubelet's entrypoint rules: command replaces the image's entrypoint, args its command.
  const [entrypoint, ...commandArgs] = container.command ?? [];
  if (entrypoint) args.push("--entrypoint", JSON.stringify([entrypoint]));
  args.push(placement.imageFor(container.image), ...commandArgs, ...(container.args ?? []));
  return args;
}

function seccomp(name: string, type: string | undefined): string[] {
  if (type === undefined || type === "RuntimeDefault") return [];
  if (type === "Unconfined") return ["--security-opt", "seccomp=unconfined"];
  throw new Error(`${name}: seccomp profile ${type} is not run here`);
}

function limits(container: Container): string[] {
  const { memory, cpu } = container.resources?.limits ?? {};
  return [
    ...(memory ? ["--memory", String(bytesOf(memory)), "--memory-swap", String(bytesOf(memory))] : []),
    ...(cpu ? ["--cpus", String(cpusOf(cpu))] : []),
  ];
}

/** Whether a Service's selector selects a pod of these labels. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> = {}) {
  return selector !== undefined && Object.entries(selector).every(([key, value]) => labels[key] === value);
}
