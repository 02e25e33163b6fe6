/**
 * Runs the things that must happen once a response is done (the access log line, the API call
 * record) from one listener, registered once per request.
 */
import type { NextFunction, Request, Response } from "express";

export type ResponseEndHook = (req: Request, res: Response) => void;

export function onResponseEnd(...hooks: ResponseEndHook[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.once("finish", () => {
      for (const hook of hooks) hook(req, res);
    });
    next();
  };
}
