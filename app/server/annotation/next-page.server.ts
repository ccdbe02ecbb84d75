/**
 * The next item's page, sent with the submit that leased it (issue 35): the task page in a browser
 * shows it at once, without a GET of the item's data after every submit — one request per item
 * instead of two, and the item is read inside the submit's transaction. The showing is recorded
 * here, as the item's loader records it when it serves the page (item-shown.server.ts).
 */
import type { Db } from "../db.server.ts";
import { ServiceError } from "../http/errors.server.ts";
import type { SessionUser } from "../auth/session.server.ts";
import { recordItemShown } from "./item-shown.server.ts";
import { taskPage } from "./tasks.server.ts";

export type TaskPageData = Omit<Awaited<ReturnType<typeof taskPage>>, "firstShowing">;

/**
 * The page of `nextPath` when it is an item of this study (null for any other step: the "no more work" page, a
 * qualification test, a channel's own step), with its showing recorded. `base` resolves the path (the request's URL).
 */
export async function nextItemPage(
  db: Db,
  studyId: number,
  user: SessionUser,
  nextPath: string,
  base: string,
): Promise<TaskPageData | null> {
  const url = new URL(nextPath, base);
  const item = /^\/annotate\/(\d+)\/items\/(\d+)$/.exec(url.pathname);
  if (!item || Number(item[1]) !== studyId) return null;
  const itemId = Number(item[2]);
  try {
    const { firstShowing, ...page } = await taskPage(db, studyId, itemId, user, url);
    if (firstShowing) await recordItemShown(db, itemId, user.id);
    return page;
  } catch (err) {
    // A refusal (the item is not theirs after all): the browser follows the plain redirect and sees it there.
    if (err instanceof ServiceError) return null;
    throw err;
  }
}
