import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, NavLink, Outlet, Scripts, ScrollRestoration, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import stylesHref from "./styles.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesHref }];
export const meta: MetaFunction = () => [{ title: "SoCRATES Studio" }];

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <header className="site-header">
          <Link to="/" className="brand">
            SoCRATES <span>Studio</span>
          </Link>
          <nav aria-label="Main">
            <NavLink to="/scenarios">Scenarios</NavLink>
            <NavLink to="/runs">Runs</NavLink>
          </nav>
        </header>
        <main className="page">{children}</main>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return (
      <section className="error-page">
        <h1>
          {error.status} {error.status === 404 ? "Not found" : error.statusText}
        </h1>
        <p>{typeof error.data === "string" && error.data ? error.data : "That page does not exist."}</p>
        <p>
          <Link to="/">Back to the start page</Link> · <Link to="/scenarios">Browse scenarios</Link>
        </p>
      </section>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <section className="error-page">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. The error has been logged on the server.</p>
      {import.meta.env.DEV ? <pre className="error-detail">{message}</pre> : null}
      <p>
        <Link to="/">Back to the start page</Link>
      </p>
    </section>
  );
}
