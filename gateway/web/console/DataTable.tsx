/**
 * A table of records: named for screen readers, scrolled sideways when it does not fit, its column
 * heads declared as a list. The console's tables (usage, errors, activity, bulk rows) share it.
 */
import type { ReactNode } from "react";

/** A column head; a numeric column is right-aligned, head and cells alike. */
export type Column = string | { label: string; numeric: true };

interface DataTableProps {
  /** The name screen readers give the scrolling region. */
  label: string;
  testId: string;
  columns: readonly Column[];
  className?: string;
  /** The rows, `<tr>` each. */
  children: ReactNode;
}

export function DataTable({ label, testId, columns, className = "stacked", children }: DataTableProps) {
  return (
    // A region the keyboard can reach and scroll when the table does not fit (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard.
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      <table className={className} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === "string" ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className="num">
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
