/**
 * Fetches a page the searcher wants to read, under the outbound policy
 * (app/server/net/outbound.server.ts: public addresses only, redirects re-checked, one deadline),
 * at most `maxBytes` read (the rest of a long page is never downloaded), then reduced to readable
 * text within `maxChars` (app/domain/curation/search-html.ts). A refusal is thrown as the
 * policy's OutboundRefusal, other failures as short messages the tool loop shows the model.
 */
import { cutToBudget, htmlTitle, htmlToText } from "../../../domain/curation/search-html.ts";
import { outboundFetch, OutboundRefusal, type OutboundHead, type OutboundPolicy } from "../../net/outbound.server.ts";
import type { PageSettings } from "../curation-config.server.ts";

export interface FetchedPage {
  url: string;
  title?: string;
  text: string;
  /** The page was longer than the byte cap. */
  truncated: boolean;
}

/** The page answered, but not with a text page to read. */
class PageUnreadable extends Error {}

const TEXT_TYPES = /text\/html|text\/plain|application\/xhtml/i;

/** Leaves the body unread unless it is a 2xx text page. */
function textPageOnly(url: string) {
  return (head: OutboundHead) => {
    if (head.status < 200 || head.status > 299) throw new PageUnreadable(`cannot fetch ${url}: HTTP ${head.status}`);
    const type = String(head.headers["content-type"] ?? "");
    if (type && !TEXT_TYPES.test(type)) throw new PageUnreadable(`cannot read ${url}: not a text page (${type})`);
  };
}

export async function fetchPage(url: string, settings: PageSettings, policy: OutboundPolicy): Promise<FetchedPage> {
  const request = { url, headers: { accept: "text/html, text/plain;q=0.9" }, inspect: textPageOnly(url) };
  let response: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    response = await outboundFetch(request, policy, {
      timeoutMs: settings.timeoutMs,
      maxBytes: settings.maxBytes,
      overflow: "truncate",
    });
  } catch (err) {
    if (err instanceof OutboundRefusal || err instanceof PageUnreadable) throw err;
    throw new Error(`cannot fetch ${url}: ${(err as Error).message}`);
  }
  const type = String(response.headers["content-type"] ?? "");
  const raw = new TextDecoder("utf-8", { fatal: false }).decode(response.body);
  const html = !/text\/plain/i.test(type);
  return {
    url,
    title: html ? htmlTitle(raw) : undefined,
    text: cutToBudget(html ? htmlToText(raw) : raw.trim(), settings.maxChars),
    truncated: response.truncated,
  };
}
