/** Any unknown URL: a real 404 rendered by the root error boundary. */
export function loader() {
  throw new Response("There is no page at this address.", { status: 404, statusText: "Not Found" });
}

export default function NotFound() {
  return null;
}
