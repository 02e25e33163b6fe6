/**
 * The @font-face rules of the faces the sealed PDF is drawn in, fetched after the page's first paint
 * instead of in its stylesheet: their unicode ranges (Chinese and Japanese are a hundred each) are
 * 65 KB compressed (brotli), which a phone on a slow network had to fetch before it drew anything. Nothing is
 * measured in those faces before the rules are there (useFaces in FieldBox.tsx waits for them), so a
 * typed name is sized in the face it is sealed in.
 */
export const facesDeclared: Promise<unknown> = import("./face-rules");
