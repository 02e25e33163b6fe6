/**
 * Whether the console shows live data or test data — what test keys make and see (sk_test_…). The
 * choice is the browser tab's (sessionStorage): a second tab may look at the other. Every call of
 * the console's client says which; the gateway reads only this header from a console session.
 */
const STORAGE_KEY = "countersign:test-data";
export const DATA_MODE_HEADER = "countersign-data-mode";

export function showsTestData(): boolean {
  try {
    return sessionStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false;
  }
}

export function showTestData(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(STORAGE_KEY, "on");
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // A browser that keeps nothing (storage switched off) shows live data after a reload.
  }
}
