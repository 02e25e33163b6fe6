/** Names for the files of a ZIP archive: a stored filename may hold a slash, and two may be equal. */

/** Names unique within one folder of the archive (ignoring case), with no folder or line break of their own. */
export function entryNames(filenames: string[]): string[] {
  const taken = new Set<string>();
  return filenames.map((filename) => {
    // A control character would break a line of SHA256SUMS, which names the files one per line.
    const base = filename.replace(/[\\/\p{Cc}]/gu, "_") || "document.pdf";
    let name = base;
    // The counter goes before the extension, so that "contract.docx" twice is "contract (2).docx".
    for (let n = 2; taken.has(name.toLowerCase()); n++)
      name = base.replace(/(\.[A-Za-z0-9]{1,5})?$/, ` (${n})$1`);
    taken.add(name.toLowerCase());
    return name;
  });
}
