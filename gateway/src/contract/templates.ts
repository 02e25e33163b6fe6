/** Templates as the public API reads and writes them (docs/design.md §4). */
import { z } from "zod";
import { id, page, text, timestamp, wholeNumber } from "./values.js";
import { FieldType } from "./vocabulary.js";

/**
 * What a field accepts beyond its type, and when it is shown: absent where the field has none. The
 * same in what a client sends and what it reads back, in templates and requests alike.
 */
export const fieldRulesShape = {
  options: z.array(z.string()).optional().meta({
    description: "A `dropdown`'s choices, in the order offered: 1 to 100, each at most 200 characters.",
  }),
  minimum: z.number().optional().meta({
    description:
      "A `number` field's smallest value, or how many boxes of a `checkbox` group must be checked at least.",
  }),
  maximum: z.number().optional().meta({
    description: "A `number` field's largest value, or how many boxes of a `checkbox` group may be checked.",
  }),
  group: z.string().optional().meta({
    description:
      "Joins `radio` buttons into one choice (required for a radio button), or `checkbox`es into a group whose checked boxes are counted. Per role; the buttons or boxes of a group share their condition.",
  }),
  option: z.string().optional().meta({
    description: "What a `radio` button's group reads when this button is chosen; unique within the group.",
  }),
  condition: z
    .strictObject({
      fieldId: z.string().meta({
        description: "The id of another field of the same role; a radio button stands for its group.",
      }),
      value: z.string().meta({
        description:
          'What that field must read: a dropdown option, a radio group\'s option, "on" or "off" for a checkbox, or the text of a text, number or date (YYYY-MM-DD) field.',
      }),
    })
    .optional()
    .meta({
      description:
        "Shows the field, and requires it if it is required, only while another field reads a value; a hidden field takes no value.",
    }),
};

/** The properties of a field on a page, shared by templates and by requests made from documents. */
export const fieldInputShape = {
  id: text().optional().meta({ description: "Assigned when absent." }),
  type: FieldType,
  role: text().meta({ description: "The role of the signer who fills the field." }),
  page: wholeNumber().meta({ description: "1-based page number." }),
  x: z.number().meta({ description: "PDF points from the page's left edge." }),
  y: z.number().meta({ description: "PDF points from the page's top edge." }),
  width: z.number().meta({ description: "In PDF points." }),
  height: z.number().meta({ description: "In PDF points." }),
  required: z.boolean().optional().meta({ description: "true unless said otherwise.", default: true }),
  label: text().optional().meta({ description: "Shown to the signer beside the field." }),
  ...fieldRulesShape,
};

export const RoleInput = z
  .strictObject({
    name: text().meta({ description: "Unique in the template (trimmed, case-insensitive)." }),
    order: wholeNumber()
      .optional()
      .meta({ description: "Routing order; roles with the same order sign in parallel." }),
  })
  .meta({ id: "RoleInput" });

export const FieldInput = z.strictObject(fieldInputShape).meta({ id: "FieldInput" });

export const TextCover = z
  .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({
    id: "TextCover",
    description:
      "The text tag that placed the field (`textTags`), in PDF points from the page's top-left corner: painted white in the completed PDF and on the signing page, so the tag does not show. Only text tags set one; a field keeps it while it keeps its id.",
  });

export const textTagsInput = z.boolean().optional().meta({
  description:
    "Also place the fields written as text tags in the documents' text, such as `{{signature:Client}}`, `{{date_signed:Client}}` or `{{text:Client:Company}}` (docs/api.md, Text tags). A tag that cannot be read, or names a role there is not, is a 422 naming its page and the tag.",
  default: false,
});

const templateProperties = {
  name: text(),
  description: text().optional(),
  documentId: id("The PDF the fields lie on."),
  roles: z.array(RoleInput),
  fields: z.array(FieldInput),
};

export const TemplateInput = z.strictObject({ ...templateProperties, textTags: textTagsInput }).meta({
  id: "TemplateInput",
  description:
    "Every role needs at least one required `signature` field; each field names a role, a page the document has, and lies inside that page. Every violation is reported at once in `errors`, with paths such as `fields[3].page`.",
});

export const TemplateUpdate = z.strictObject(templateProperties).partial().meta({
  id: "TemplateUpdate",
  description:
    "The properties present replace the stored ones (roles and fields whole); the result is validated as a whole.",
});

export const Role = z.strictObject({ name: z.string(), order: z.int() }).meta({ id: "Role" });

/** A field as the API writes it, in a template and in a request alike. */
export const placedFieldShape = {
  id: z.string(),
  type: FieldType,
  page: z.int().min(1),
  x: z.number(),
  y: z.number(),
  width: z.number().meta({ description: "In PDF points." }),
  height: z.number().meta({ description: "In PDF points." }),
  required: z.boolean(),
  label: z.string(),
  cover: TextCover.optional(),
  ...fieldRulesShape,
};

export const Field = z
  .strictObject({
    ...placedFieldShape,
    role: z.string().meta({ description: "The name of one of the template's roles." }),
  })
  .meta({ id: "Field" });

export const Template = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    documentId: z.uuid(),
    roles: z.array(Role),
    fields: z.array(Field),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Template" });

export const TemplatePage = page(Template, "TemplatePage");

export const TemplateIdParams = z.object({ templateId: id("The template's id.") });
