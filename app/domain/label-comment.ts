/**
 * The optional comment an annotator stores with a label (a column of the label revision): trimmed, empty means none,
 * at most LABEL_COMMENT_MAX characters. The task page's field and the server read the same limit.
 */
import { z } from "zod";

export const LABEL_COMMENT_MAX = 1000;

export const labelCommentSchema = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null)
  .pipe(z.string().max(LABEL_COMMENT_MAX, `a comment is at most ${LABEL_COMMENT_MAX} characters`).nullable());
