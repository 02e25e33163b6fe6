/**
 * A client of an RFC 3161 time-stamping authority: it sends a SHA-256 digest with a fresh nonce and
 * takes back a token only when the authority granted it, for that digest and that nonce, signed by
 * a certificate the token carries (and, when a trust anchor is configured, one that chains to it).
 * Anything else is an error naming what was wrong: a completion never goes on with half a stamp.
 */
import { randomBytes } from "node:crypto";
import { type OutboundAnswer, OutboundClient, peerFailure } from "@countersign/kit";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { Counter, Histogram } from "prom-client";
import { OID, parseDer, sha256, toArrayBuffer } from "./cms-signature.js";

export interface TimestampAuthority {
  url: string;
  /** HTTP Basic credentials, when the authority asks for them. */
  username?: string | undefined;
  password?: string | undefined;
  /** Certificates (DER) the authority's must chain to; without them the token's own are believed. */
  trustAnchors?: Uint8Array[] | undefined;
  timeoutMs: number;
}

/** What an authority stamped: the token's DER and the time it vouches for. */
export interface Timestamp {
  token: Uint8Array;
  time: Date;
}

/** A token is a few KiB with its certificates; an answer past this is not one. */
const MAX_REPLY_BYTES = 256 * 1024;

/**
 * The operator names the authority (COUNTERSIGN_TSA_URL), so any address may be reached; the answer
 * is still bounded in bytes and time, and a redirect is not followed.
 */
const authorities = new OutboundClient({ purpose: "time-stamping authority", reach: "any" });

export class TimestampError extends Error {
  override name = "TimestampError";
}

const PKI_STATUS = [
  "granted",
  "grantedWithMods",
  "rejection",
  "waiting",
  "revocationWarning",
  "revocationNotification",
];

/**
 * 16 random bytes read as a positive INTEGER in its minimal DER form: the first byte is 1–127. A
 * first byte of 0 (1 time in 256) made a non-minimal INTEGER that strict authorities refuse or echo
 * re-encoded, failing that seal attempt.
 */
export function timestampNonce(): Buffer {
  const nonce = randomBytes(16);
  nonce[0] = 1 + ((nonce[0] ?? 0) % 127);
  return nonce;
}

/**
 * Every request to the authority by outcome, and how long it took: `CountersignTimestampAuthorityFailing`
 * watches the first. The sealing processes export them.
 */
export const timestampMetrics = {
  requests: new Counter({
    name: "timestamp_requests_total",
    help: "Requests to the RFC 3161 time-stamping authority, by outcome: stamped, or failed (unreachable, refused, or a token that does not check).",
    labelNames: ["outcome"],
    registers: [],
  }),
  seconds: new Histogram({
    name: "timestamp_request_duration_seconds",
    help: "How long the time-stamping authority took to answer, whatever it answered.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  }),
};

/** Asks `authority` to stamp `data` (by its SHA-256). */
export async function requestTimestamp(authority: TimestampAuthority, data: Uint8Array): Promise<Timestamp> {
  const stop = timestampMetrics.seconds.startTimer();
  try {
    const stamped = await askAuthority(authority, data);
    timestampMetrics.requests.inc({ outcome: "stamped" });
    return stamped;
  } catch (err) {
    timestampMetrics.requests.inc({ outcome: "failed" });
    throw err;
  } finally {
    stop();
  }
}

async function askAuthority(authority: TimestampAuthority, data: Uint8Array): Promise<Timestamp> {
  const digest = sha256(data);
  const nonce = timestampNonce();
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
    certReq: true,
  });
  const headers: Record<string, string> = { "content-type": "application/timestamp-query" };
  if (authority.username !== undefined) {
    const pair = `${authority.username}:${authority.password ?? ""}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  }
  const where = new URL(authority.url).host;
  let answer: OutboundAnswer;
  try {
    answer = await authorities.request(
      authority.url,
      { method: "POST", headers, body: new Uint8Array(request.toSchema().toBER()) },
      { maxBytes: MAX_REPLY_BYTES, timeoutMs: authority.timeoutMs },
    );
  } catch (err) {
    throw new TimestampError(`the time-stamping authority at ${where} ${peerFailure(err)}`, { cause: err });
  }
  if (answer.status < 200 || answer.status > 299)
    throw new TimestampError(`the time-stamping authority at ${where} answered ${answer.status}`);
  return checkReply(answer.body, data, digest, nonce, authority, where);
}

async function checkReply(
  reply: Uint8Array,
  data: Uint8Array,
  digest: Uint8Array,
  nonce: Buffer,
  authority: TimestampAuthority,
  where: string,
): Promise<Timestamp> {
  const refused = (why: string) => new TimestampError(`the time-stamping authority at ${where} ${why}`);
  let response: pkijs.TimeStampResp;
  try {
    response = new pkijs.TimeStampResp({ schema: parseDer(reply) });
  } catch {
    throw refused("answered with something that is not a time-stamp response");
  }
  const status = response.status.status;
  if (status !== 0 && status !== 1) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join("; ");
    throw refused(`refused to stamp: ${PKI_STATUS[status] ?? status}${text ? ` (${text})` : ""}`);
  }
  const token = response.timeStampToken;
  if (!token || token.contentType !== OID.signedData) throw refused("granted a stamp but sent no token");
  const signed = new pkijs.SignedData({ schema: token.content });
  const { tstInfo, time } = readTstInfo(signed);
  const imprint = new Uint8Array(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (
    tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 ||
    !Buffer.from(imprint).equals(digest)
  ) {
    throw refused("stamped another digest than the one it was sent");
  }
  const echoed = tstInfo.nonce ? Buffer.from(tstInfo.nonce.valueBlock.valueHexView) : undefined;
  if (!echoed || !stripZeros(echoed).equals(stripZeros(nonce)))
    throw refused("answered another request (its nonce differs)");
  const trustedCerts = authority.trustAnchors?.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
  const verified = await signed
    .verify({
      signer: 0,
      data: toArrayBuffer(data),
      checkChain: Boolean(trustedCerts?.length),
      trustedCerts: trustedCerts ?? [],
      extendedMode: true,
    })
    .catch((err: pkijs.SignedDataVerifyError) => err);
  // pkijs checks the chain first: a signer it could not chain was never checked further.
  if (trustedCerts?.length && verified.signerCertificateVerified === false) {
    throw refused("sent a token signed by a certificate that does not chain to the configured trust anchors");
  }
  if (!verified.signatureVerified) {
    throw refused(`sent a token whose signature does not verify: ${verified.message}`);
  }
  return { token: new Uint8Array(token.toSchema().toBER()), time };
}

/** The TSTInfo a token's SignedData carries, and the time it states. */
export function readTstInfo(signed: pkijs.SignedData): { tstInfo: pkijs.TSTInfo; time: Date } {
  const content = signed.encapContentInfo;
  if (content.eContentType !== OID.tstInfo || !content.eContent)
    throw new TimestampError("a time-stamp token without TSTInfo");
  const tstInfo = new pkijs.TSTInfo({
    schema: parseDer(new Uint8Array(content.eContent.getValue())),
  });
  return { tstInfo, time: tstInfo.genTime };
}

/** An INTEGER's bytes without the sign octet a positive value may carry. */
const stripZeros = (bytes: Buffer) => {
  let at = 0;
  while (at < bytes.length - 1 && bytes[at] === 0) at += 1;
  return bytes.subarray(at);
};
