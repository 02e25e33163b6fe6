/** What a workspace's own seal file may be: checked by the requests service, declared by the public contract. */

/** The largest PKCS#12 file taken: a key and a chain of a few certificates is well under 20 KiB. */
export const MAX_SEAL_FILE_BYTES = 64 * 1024;

/** The longest password taken with a seal file. */
export const MAX_SEAL_PASSWORD_LENGTH = 1024;
