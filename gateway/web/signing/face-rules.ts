// The faces the sealed PDF is drawn in (font-stacks.ts in the requests service), as its stacks order them.
import "@fontsource/caveat/400.css";
import "@fontsource/noto-sans/400.css";
import "@fontsource/noto-sans-arabic/400.css";
import "@fontsource/noto-sans-sc/400.css";
