import { useState } from "react";
import { tokenFromFragment } from "./link-token";

/** The link's token, kept for the page's life while the address bar loses it. */
export function useLinkToken(): string {
  const [token] = useState(() => {
    const found = tokenFromFragment(window.location.hash);
    if (found) window.history.replaceState(null, "", window.location.pathname);
    return found;
  });
  return token;
}
