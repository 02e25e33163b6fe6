/**
 * The signing page's language: react-intl's provider with the catalogue of the language the signer
 * gets (locales.ts), the document's lang and direction set to match, and the switcher to change it.
 */

import {
  DEFAULT_SIGNER_LOCALE,
  localeDirection,
  type MessageElement,
  pickSignerLocale,
  SIGNER_LOCALE_NAMES,
  SIGNER_LOCALES,
  type SignerLocale,
  selectorsOf,
} from "@countersign/domain/web";
import { IntlMessageFormat } from "intl-messageformat";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useState,
} from "react";
import { IntlProvider, useIntl } from "react-intl";
import {
  firstStrongDirection,
  loadCatalogue,
  mixesDirections,
  storeChoice,
  storedChoice,
  type Translate,
} from "./locales";
import type { Catalogue, MessageId } from "./messages/en";

declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}

interface LanguageState {
  locale: SignerLocale;
  /** The signer picks a language: it stays theirs on this device. */
  choose: (locale: SignerLocale) => void;
  /** The sender's choice for this signer, which holds unless the signer chose on the page. */
  follow: (senderChoice: string | null | undefined) => void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error("useLanguage outside LanguageProvider");
  return state;
}

export function LanguageProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState(storedChoice);
  const [senderChoice, setSenderChoice] = useState<SignerLocale>();
  const locale = chosen ?? senderChoice ?? pickSignerLocale(navigator.languages) ?? DEFAULT_SIGNER_LOCALE;
  const [loaded, setLoaded] = useState<{ locale: SignerLocale; messages: Catalogue }>();

  useEffect(() => {
    let current = true;
    loadCatalogue(locale).then(
      (messages) => current && setLoaded({ locale, messages }),
      // A language that will not load (the network) leaves the page in the one it shows.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [locale]);

  useEffect(() => {
    if (!loaded) return;
    document.documentElement.lang = loaded.locale;
    document.documentElement.dir = localeDirection(loaded.locale);
  }, [loaded]);

  const choose = useCallback((next: SignerLocale) => {
    storeChoice(next);
    setChosen(next);
  }, []);
  const follow = useCallback(
    (tag: string | null | undefined) => setSenderChoice(pickSignerLocale([tag])),
    [],
  );

  if (!loaded) return null;
  return (
    <LanguageContext.Provider value={{ locale: loaded.locale, choose, follow }}>
      <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale={DEFAULT_SIGNER_LOCALE}>
        {children}
      </IntlProvider>
    </LanguageContext.Provider>
  );
}

type RichValues = Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

/**
 * Text from outside (a title, a name) in a sentence of the page, set apart from its direction. One
 * that reads the other way from the page, or mixes both ways, is also kept whole on a line of its
 * own direction where it fits: split over two lines of a right-to-left sentence, "Consulting offer —
 * عرض استشاري" would read "Consulting عرض استشاري — offer".
 */
function Isolated({ text, pageDirection }: { text: string; pageDirection: "ltr" | "rtl" }) {
  const own = firstStrongDirection(text);
  const apart = (own !== undefined && own !== pageDirection) || mixesDirections(text);
  return (
    <bdi dir={own ?? "auto"} className={apart ? "isolated-apart" : undefined}>
      {text}
    </bdi>
  );
}

/**
 * The page's words: `t(id, values)` a message as text, `t.rich(id, values)` one with markup, where
 * <b> is strong and <muted> muted unless the values say otherwise, and every text value is set
 * apart (<bdi>) from the sentence's direction.
 */
export function useT(): Translate & { rich: (id: MessageId, values?: RichValues) => ReactNode } {
  const intl = useIntl();
  const pageDirection = localeDirection(intl.locale as SignerLocale);
  return useMemo(() => {
    const t: Translate = (id, values) => intl.formatMessage({ id }, values);
    const selectors = new Map<MessageId, Set<string>>();
    const selectorsOfMessage = (id: MessageId): Set<string> => {
      let found = selectors.get(id);
      if (!found) {
        const message = intl.messages[id];
        const ast =
          typeof message === "string" ? new IntlMessageFormat(message, intl.locale).getAst() : message;
        found = selectorsOf((ast ?? []) as MessageElement[]);
        selectors.set(id, found);
      }
      return found;
    };
    const rich = (id: MessageId, values: RichValues = {}): ReactNode => {
      // A select's key (hasSender) is matched, not shown: it stays a string.
      const keys = selectorsOfMessage(id);
      return intl.formatMessage(
        { id },
        {
          b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
          muted: (chunks: ReactNode[]) => <span className="muted">{chunks}</span>,
          ...Object.fromEntries(
            Object.entries(values).map(([name, value]) => [
              name,
              typeof value === "string" && !keys.has(name) ? (
                <Isolated key={name} text={value} pageDirection={pageDirection} />
              ) : (
                value
              ),
            ]),
          ),
        },
      );
    };
    return Object.assign(t, { rich });
  }, [intl, pageDirection]);
}

/** The language switcher: each language named in itself. */
export function LanguageSwitcher() {
  const { locale, choose } = useLanguage();
  const t = useT();
  const id = useId();
  return (
    <div className="language">
      <label htmlFor={id} className="language-label">
        {t("language.label")}
      </label>
      <select
        id={id}
        data-testid="language"
        value={locale}
        onChange={(e) => choose(e.target.value as SignerLocale)}
      >
        {SIGNER_LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {SIGNER_LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
