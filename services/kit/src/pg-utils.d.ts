/** The part of node-postgres's own utilities the embedded adapter uses; @types/pg does not declare them. */
declare module "pg/lib/utils.js" {
  const utils: {
    /** A JavaScript value as node-postgres sends it as a text parameter (null for SQL NULL). */
    prepareValue(value: unknown): string | Buffer | null;
  };
  export default utils;
}
