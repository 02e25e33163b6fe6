/**
 * A list's loading and error states, what it says when empty, and its rows; for a list that comes a
 * page at a time, the pager too. The list pages and the settings' lists each declared this shape.
 */
import type { ReactNode } from "react";
import type { Page } from "./types";
import { type Loaded, Pager, Show } from "./ui";

interface PagedRowsProps<T> {
  loaded: Loaded<Page<T>>;
  /** What the rows are, for "Loading …". */
  what: string;
  onRetry: () => void;
  onPage: (index: number) => void;
  /** Shown instead of the list when the page has no items. */
  empty: ReactNode;
  testId: string;
  /** One `<li>` per item, with its key. */
  children: (item: T, page: Page<T>) => ReactNode;
}

export function PagedRows<T>({ loaded, what, onRetry, onPage, empty, testId, children }: PagedRowsProps<T>) {
  return (
    <Show loaded={loaded} what={what} onRetry={onRetry}>
      {(page) => (
        <>
          <RowList items={page.items} empty={empty} testId={testId}>
            {(item) => children(item, page)}
          </RowList>
          {page.items.length === 0 ? null : <Pager page={page} onPage={onPage} />}
        </>
      )}
    </Show>
  );
}

type RowsProps<T> = Omit<PagedRowsProps<T>, "loaded" | "onPage" | "children"> & {
  loaded: Loaded<{ items: T[] }>;
  children: (item: T) => ReactNode;
};

/** A list that comes whole, as PagedRows shows one that comes a page at a time. */
export function Rows<T>({ loaded, what, onRetry, empty, testId, children }: RowsProps<T>) {
  return (
    <Show loaded={loaded} what={what} onRetry={onRetry}>
      {({ items }) => (
        <RowList items={items} empty={empty} testId={testId}>
          {children}
        </RowList>
      )}
    </Show>
  );
}

function RowList<T>({
  items,
  empty,
  testId,
  children,
}: {
  items: T[];
  empty: ReactNode;
  testId: string;
  children: (item: T) => ReactNode;
}) {
  return items.length === 0 ? (
    empty
  ) : (
    <ul className="rows" data-testid={testId}>
      {items.map(children)}
    </ul>
  );
}
