// The faces the sealed PDF is drawn in (STACK_SHEETS in the requests service's font-stacks.ts), as
// its stacks order them: the handwriting faces of each script, then the text faces.
import "@fontsource/caveat/400.css";
import "@fontsource/playpen-sans/greek-400.css";
import "@fontsource/playpen-sans/vietnamese-400.css";
import "@fontsource/kalam/devanagari-400.css";
import "@fontsource/aref-ruqaa/arabic-400.css";
import "@fontsource/long-cang/400.css";
import "@fontsource/klee-one/400.css";
import "@fontsource/noto-sans/400.css";
import "@fontsource/noto-sans-arabic/400.css";
import "@fontsource/noto-sans-hebrew/400.css";
import "@fontsource/noto-sans-sc/400.css";
