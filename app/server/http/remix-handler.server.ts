/**
 * Serves Remix from express: our own small adapter around @remix-run/node's request handler, so
 * the request body comes from what bodyLimit (body-limit.server.ts) read within the limit, never
 * straight from the socket, and every loader and action gets the load context
 * (load-context.server.ts): the client address and this response's CSP nonce.
 */
import {
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import { answerUnavailable } from "./unavailable.server.ts";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

export interface RemixHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  /** The public origin (APP_ORIGIN) when set: request URLs are built on it instead of the Host header. */
  appOrigin: string | null;
}

function loadContext(req: ExpressRequest, res: ExpressResponse): AppLoadContext {
  // req.ip follows express's "trust proxy" (TRUST_PROXY): the socket's address unless a trusted proxy says otherwise.
  return { clientAddress: req.ip ?? req.socket.remoteAddress, cspNonce: res.locals.cspNonce as string | undefined };
}

function fetchRequest(req: ExpressRequest, res: ExpressResponse, appOrigin: string | null): Request {
  const url = new URL(req.originalUrl, appOrigin ?? `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const controller = new AbortController();
  // Abort loaders and actions when the client is gone before the response is written.
  res.on("close", () => res.writableFinished || controller.abort());
  const read = (res.locals.body as Buffer | undefined) ?? Buffer.alloc(0);
  const body =
    req.method === "GET" || req.method === "HEAD"
      ? undefined
      : new Uint8Array(read.buffer as ArrayBuffer, read.byteOffset, read.byteLength);
  return new Request(url.href, { method: req.method, headers, body, signal: controller.signal });
}

/** Bodies up to this size are sent in one write; a larger one streams on after its first part. */
const ONE_WRITE_BYTES = 1 << 20;

/** Past this size, a whole body is written as its chunks in one corked write rather than copied into one buffer. */
const COPY_BYTES = 64 * 1024;

function endWith(res: ExpressResponse, chunks: Uint8Array[], size: number): void {
  if (size <= COPY_BYTES) return void res.end(Buffer.concat(chunks, size));
  // A large page (the dashboard's, ~0.7 MB): copying it cost ~1 ms of CPU per request and its share of collections.
  if (!res.hasHeader("Content-Length")) res.setHeader("Content-Length", size);
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (!response.body) return void res.end();
  // A page or a .data answer arrives in many small chunks; a socket write each cost about 8% of
  // the server's time under load. They are gathered and sent at once.
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return void endWith(res, chunks, size);
    chunks.push(value);
    size += value.byteLength;
    if (size > ONE_WRITE_BYTES) break;
  }
  reader.releaseLock();
  res.write(Buffer.concat(chunks));
  await writeReadableStreamToWritable(response.body, res);
}

export function remixHandler(options: RemixHandlerOptions) {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> => {
    let request: Request;
    try {
      request = fetchRequest(req, res, options.appOrigin);
    } catch {
      res.status(400).type("text/plain").send("Bad request: the Host header does not make a valid URL.");
      return;
    }
    try {
      const context = loadContext(req, res);
      // A request that could not save (busy database, full disk) answers 503 with Retry-After (unavailable.server.ts).
      await sendResponse(res, await answerUnavailable(request, () => handle(request, context)));
    } catch (err) {
      next(err);
    }
  };
}
