/**
 * The request-body limit, before anything is parsed. A declared Content-Length over the limit is
 * answered 413 at once, unread; any other body (chunked, or within its declared length) is
 * counted while it is read and answered 413 the moment it passes the limit, so at most `limit`
 * bytes of one request are ever held in memory. A body that fits is handed on in
 * `res.locals.body` for the Remix handler (remix-handler.server.ts), which builds the request
 * from it instead of the socket.
 */
import type { NextFunction, Request, Response } from "express";

const mebibytes = (n: number) => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MB`;

function refuse(res: Response, limit: number): void {
  // Connection: close, so the rest of an oversized body is never read.
  res
    .status(413)
    .set({ "Content-Type": "text/plain; charset=utf-8", Connection: "close" })
    .send(`Request body too large: this server accepts at most ${mebibytes(limit)} (${limit} bytes) per request.`);
}

export function bodyLimit(limit: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) return refuse(res, limit);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = () => {
      settled = true;
      req.removeAllListeners("data");
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      settle();
      chunks.length = 0;
      req.pause();
      refuse(res, limit);
    });
    req.on("end", () => {
      if (settled) return;
      settle();
      res.locals.body = Buffer.concat(chunks);
      next();
    });
    req.on("error", (err) => {
      if (settled) return;
      settle();
      next(err);
    });
  };
}
