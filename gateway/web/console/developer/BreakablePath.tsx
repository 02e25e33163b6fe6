/** A URL path that may wrap after its separators, never inside a segment: /api/v1/⏎signature-requests. */
import { Fragment } from "react";

export function BreakablePath({ path }: { path: string }) {
  const parts = path.split(/(?<=[/?&])/);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one path, in order.
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
