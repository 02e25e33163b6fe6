/**
 * How an endpoint's deliveries are written and signed: `standard_webhooks`, our own events under the
 * Standard Webhooks headers, or `docusign_connect`, DocuSign Connect's JSON envelope events signed
 * with HMAC-SHA256, for receivers written for DocuSign. Chosen when the endpoint is made.
 */
export const ENDPOINT_FORMATS = ["standard_webhooks", "docusign_connect"] as const;

export type EndpointFormat = (typeof ENDPOINT_FORMATS)[number];

export function isEndpointFormat(value: string): value is EndpointFormat {
  return (ENDPOINT_FORMATS as readonly string[]).includes(value);
}
