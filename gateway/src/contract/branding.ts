/**
 * A workspace's branding as the API shows and takes it: one colour, whether our name shows, and a
 * logo, which is sent apart (base64, as DocuSign takes files) since it is replaced on its own.
 */
import { LOGO_LIMITS, MAX_SENDER_NAME, MIN_BRAND_CONTRAST } from "@countersign/domain";
import { z } from "zod";
import { base64Text } from "./base64.js";
import { optionalTimestamp, text } from "./values.js";

/** A 100 KiB logo as base64 (the service refuses a larger one, saying its limit). */
const LOGO_BASE64_CHARS = Math.ceil((LOGO_LIMITS.bytes + 1) / 3) * 4;

const accentColor = text()
  .max(20)
  .nullable()
  .meta({
    description: `The colour of the signing page's buttons, links and focus rings, \`#rrggbb\`; null for ours. White text must read on it at ${MIN_BRAND_CONTRAST}:1 or more (WCAG 2.2 AA), else 422 says its contrast.`,
    examples: ["#0b6e4f"],
  });

const hideProductName = z.boolean().meta({
  description:
    "Leave our name off the signing pages and e-mails: the page's header shows the workspace's logo, or the sender's name when there is none.",
});

const emailSenderName = text()
  .max(MAX_SENDER_NAME)
  .nullable()
  .meta({
    description:
      'The name e-mails to recipients come from ("Acme Leasing"), in place of "<sender> via Countersign"; null for that. The address stays the deployment\'s, so its SPF and DKIM hold. One line, without "@"; needed with `hideProductName`.',
    examples: ["Acme Leasing"],
  });

const emailSenderAddress = text()
  .max(254)
  .nullable()
  .meta({
    description:
      "The address e-mails to recipients come from (`contracts@acme.example`), once its domain published the TXT record `emailDomain` names and was verified; until then, and when null, the deployment's. Bounces still go to the deployment's address. Changing the domain asks for a new record.",
    examples: ["contracts@acme.example"],
  });

export const EmailDomain = z
  .strictObject({
    domain: z.string().meta({ description: "The sending address's domain, lower case (IDNs as punycode)." }),
    txtName: z
      .string()
      .meta({ description: "The TXT record to publish.", examples: ["_countersign.acme.example"] }),
    txtValue: z
      .string()
      .meta({ description: "The record's value, which proves the domain is this workspace's." }),
    verified: z.boolean().meta({ description: "The record was found: e-mails come from the address." }),
    verifiedAt: optionalTimestamp.meta({ description: "When the record was found; null until then." }),
    relay: z.string().nullable().meta({
      description:
        "The SMTP server (host:port) e-mails are handed to. For receivers to accept mail from your domain, its SPF record must allow this server's senders (your provider's `include:`), and for DMARC the provider should sign it for your domain (DKIM). Null when this deployment writes e-mails to its outbox.",
    }),
    bounceAddress: z.string().meta({
      description: "The deployment's own address: the envelope sender (Return-Path), where bounces go.",
    }),
  })
  .meta({ id: "EmailDomain" });

export const Branding = z
  .strictObject({
    accentColor,
    hideProductName,
    emailSenderName,
    emailSenderAddress,
    emailDomain: EmailDomain.nullable().meta({
      description:
        "What the sending address's domain must publish, and whether it did; null without an address.",
    }),
    logoUrl: z.string().nullable().meta({
      description:
        "The logo in the signing page's header, at an address that changes with it (cached for good); null when there is none.",
    }),
  })
  .meta({ id: "Branding" });

export const BrandingInput = z
  .strictObject({
    accentColor,
    hideProductName,
    emailSenderName: emailSenderName.optional(),
    emailSenderAddress: emailSenderAddress.optional(),
  })
  .meta({ id: "BrandingInput" });

export const BrandingLogoInput = z
  .strictObject({
    image: base64Text().max(LOGO_BASE64_CHARS).meta({
      description:
        "The logo, base64: a PNG or JPEG of at most 100 KiB, 16 to 1200 pixels wide and 16 to 400 high (an SVG is refused: it may carry scripts). A JPEG is kept without its metadata (EXIF, GPS).",
    }),
  })
  .meta({ id: "BrandingLogoInput" });

/** The JSON limit of a logo's body: its base64 and the object around it. */
export const LOGO_BODY_LIMIT = LOGO_BASE64_CHARS + 1024;
