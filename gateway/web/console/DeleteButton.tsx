/**
 * A list row's Delete: the button names what it deletes, and a confirmation asks first. One
 * component for every list whose rows can be deleted (API keys, templates).
 */

import { isolate } from "@countersign/domain/web";
import { type ReactNode, useState } from "react";
import { Confirm } from "./ui";

export function DeleteButton({
  kind,
  name,
  description,
  onDelete,
}: {
  /** What the row is, in words: "key", "template". */
  kind: string;
  /** The row's own name, as the user gave it. */
  name: string;
  /** What deleting it does, said in the confirmation. */
  description: ReactNode;
  /** Deletes it; a failure is shown in the confirmation. */
  onDelete: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button secondary small"
        onClick={() => setAsking(true)}
        aria-label={`Delete the ${kind} ${name}`}
      >
        Delete
      </button>
      {asking ? (
        <Confirm
          title={`Delete “${isolate(name)}”?`}
          description={description}
          confirmLabel={`Delete ${kind}`}
          danger
          onConfirm={onDelete}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
