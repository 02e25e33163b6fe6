import type { Catalogue } from "./en.js";

export const pl: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Zbyt wiele prób",
  "tooMany.body":
    "Z Twojego adresu otwarto zbyt wiele linków do podpisania. Odczekaj {seconds, plural, one {# sekundę} few {# sekundy} many {# sekund} other {# sekundy}} i otwórz link ponownie.",
  "invalid.title": "Ten link do podpisania jest nieprawidłowy",
  "invalid.body":
    "Sprawdź, czy otwierasz pełny adres z wiadomości e-mail, lub poproś nadawcę o ponowne wysłanie.",
  "gone.title": "Ten link już nie działa",
  "unavailable.title": "Podpisywanie jest teraz niedostępne",
  "unavailable.body": "Nie udało się otworzyć dokumentu. Spróbuj otworzyć link ponownie za minutę.",
};
