/**
 * The shape of an integration's OAuth access token (DocuSign's JWT grant, docs/restapi.md): auth
 * issues it, the gateway turns away anything else before asking auth about it.
 */
export const ACCESS_TOKEN_PATTERN = /^oat_[0-9A-Za-z]{43}$/;
