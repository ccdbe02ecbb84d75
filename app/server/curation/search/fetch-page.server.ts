/**
 * Fetches a page the searcher wants to read: http(s) only, a timeout, at most `maxBytes` read
 * (the rest of a long page is never downloaded), then reduced to readable text within
 * `maxChars` (app/domain/curation/search-html.ts). Failures are thrown as short messages the
 * tool loop shows the model.
 */
import { cutToBudget, htmlTitle, htmlToText } from "../../../domain/curation/search-html.ts";
import type { PageSettings } from "../curation-config.server.ts";

export interface FetchedPage {
  url: string;
  title?: string;
  text: string;
  /** The page was longer than the byte cap. */
  truncated: boolean;
}

/** Reads at most `maxBytes` of a body, cancelling the rest. */
async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      truncated = size > maxBytes;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
    if (offset >= bytes.length) break;
  }
  return { bytes, truncated };
}

export async function fetchPage(url: string, settings: PageSettings, fetchImpl: typeof fetch = fetch): Promise<FetchedPage> {
  if (!/^https?:\/\//i.test(url)) throw new Error(`cannot fetch ${url}: only http and https pages`);
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: "text/html, text/plain;q=0.9" }, redirect: "follow", signal: AbortSignal.timeout(settings.timeoutMs) });
  } catch (err) {
    const why = (err as Error).name === "TimeoutError" ? `no answer within ${settings.timeoutMs} ms` : (err as Error).message;
    throw new Error(`cannot fetch ${url}: ${why}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  }
  const type = response.headers.get("content-type") ?? "";
  if (type && !/text\/html|text\/plain|application\/xhtml/i.test(type)) {
    await response.body?.cancel();
    throw new Error(`cannot read ${url}: not a text page (${type})`);
  }
  const { bytes, truncated } = await readCapped(response, settings.maxBytes);
  const raw = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const html = !/text\/plain/i.test(type);
  return {
    url,
    title: html ? htmlTitle(raw) : undefined,
    text: cutToBudget(html ? htmlToText(raw) : raw.trim(), settings.maxChars),
    truncated,
  };
}
