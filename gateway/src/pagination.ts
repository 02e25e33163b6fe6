/** `pageIndex` (0-based, default 0) and `pageSize` (1..100, default 20) from the query; out of range is 400. */
import type { Request } from "express";
import { ApiProblem } from "./problems.js";

export interface Page {
  pageIndex: number;
  pageSize: number;
}

function integer(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new ApiProblem("invalid_request", `${name} must be a whole number from ${min} to ${max}`);
  }
  return parsed;
}

export function pageOf(req: Request): Page {
  return {
    pageIndex: integer(req.query.pageIndex, "pageIndex", 0, 0, 1_000_000),
    pageSize: integer(req.query.pageSize, "pageSize", 20, 1, 100),
  };
}

export function pageBody<T>(items: T[], page: Page, totalCount: number) {
  return { items, pageIndex: page.pageIndex, pageSize: page.pageSize, totalCount };
}
