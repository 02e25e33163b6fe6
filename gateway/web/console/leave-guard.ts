/**
 * Leaving a page with unsaved work asks first: closing or reloading the tab (the browser's own
 * question) and following a link inside the console (ours, before the router sees the click).
 */
import { useEffect } from "react";

export const LEAVE_QUESTION = "Leave this page? What you changed here is not saved.";

export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    // Capturing on the document runs before React's listener on its root, where the router's links act.
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || link.getAttribute("target") === "_blank" || event.defaultPrevented) return;
      if (window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("beforeunload", onUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [unsaved]);
}
