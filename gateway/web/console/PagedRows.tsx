/**
 * A list that comes a page at a time: its loading and error states, what it says when empty, its
 * rows and the pager. The list pages (requests, bulk sends, templates) each declared this shape.
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
      {(page) =>
        page.items.length === 0 ? (
          empty
        ) : (
          <>
            <ul className="rows" data-testid={testId}>
              {page.items.map((item) => children(item, page))}
            </ul>
            <Pager page={page} onPage={onPage} />
          </>
        )
      }
    </Show>
  );
}
