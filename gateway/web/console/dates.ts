/** Times as the console writes them, in the reader's own locale and zone. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export const formatDateTime = (at: Date) => dateTime.format(at);
export const formatDay = (at: Date) => day.format(at);
