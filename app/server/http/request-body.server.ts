/**
 * Reading request bodies in route actions. A body that is not a form (malformed multipart or
 * urlencoded data, JSON, no content type) is the client's mistake: 400, never a 500.
 * (Bodies over the size limit never get here: the web server answers them 413.)
 */

/** The request's form fields; an unreadable body throws a 400 response. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    const type = request.headers.get("Content-Type") ?? "none";
    throw new Response(
      `The request body is not a form this page accepts (content type: ${type.split(";")[0]}); send application/x-www-form-urlencoded or multipart/form-data.`,
      {
        status: 400,
        statusText: "Bad Request",
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      },
    );
  }
}
