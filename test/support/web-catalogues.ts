/**
 * The signing page's own modules, loaded by path as jest runs them: they are built for the browser
 * (extensionless imports, checked by the web apps' tsconfig), so the suites here read them as data.
 */
import { join } from "node:path";
import { REPO } from "./deployments.js";

type Catalogue = Record<string, string>;

interface PageLocales {
  loadCatalogue: (code: string) => Promise<Catalogue>;
}

const pageLocales = (): Promise<PageLocales> =>
  import(join(REPO, "gateway/web/signing/i18n/locales.ts")) as Promise<PageLocales>;

/** The signing page's words in one language, as the page loads them. */
export async function signingPageWords(locale: string): Promise<Catalogue> {
  return (await pageLocales()).loadCatalogue(locale);
}
