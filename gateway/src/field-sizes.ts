/**
 * The size a field gets when it is placed for the sender — by an anchor (/restapi) or a text tag —
 * and they gave none: about DocuSign's, in PDF points.
 */
export const DEFAULT_FIELD_SIZES: Record<string, [width: number, height: number]> = {
  signature: [150, 40],
  initials: [60, 30],
  date_signed: [100, 20],
  text: [150, 20],
  checkbox: [16, 16],
  name: [150, 20],
  email: [180, 20],
  date: [100, 20],
  number: [80, 20],
  dropdown: [120, 20],
  radio: [16, 16],
  attachment: [150, 30],
};
