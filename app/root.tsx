import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { currentUser } from "./server/auth/session.server.ts";
import { useCspNonce } from "./components/csp-nonce.ts";
import { useEffect, type ReactNode } from "react";
import stylesHref from "./styles.css?url";
import abTaskHref from "./styles/ab-task.css?url";
import jargonHref from "./styles/jargon.css?url";
import runsHref from "./styles/runs.css?url";
import taskPageStylesHref from "./styles/task-page.css?url";
import chartsHref from "./styles/charts.css?url";
import a11yHref from "./styles/a11y.css?url";
import hotkeysGoldHref from "./styles/hotkeys-gold.css?url";
import activeLabellingHref from "./styles/active-labelling.css?url";
import { THEME_SCRIPT, ThemeToggle } from "./components/ThemeToggle.tsx";
import { rootRevalidation } from "./components/tasks/draft-revalidation.ts";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesHref },
  { rel: "stylesheet", href: abTaskHref },
  { rel: "stylesheet", href: jargonHref },
  { rel: "stylesheet", href: runsHref },
  { rel: "stylesheet", href: taskPageStylesHref },
  { rel: "stylesheet", href: chartsHref },
  { rel: "stylesheet", href: a11yHref },
  { rel: "stylesheet", href: hotkeysGoldHref },
  { rel: "stylesheet", href: activeLabellingHref },
  // public/favicon.svg: without it every page asks for /favicon.ico and logs a 404.
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];
export const meta: MetaFunction = () => [{ title: "SoCRATES Studio" }];

// The signed-in user does not change with a draft save or on the way from one task item to the next
// (draft-revalidation.ts).
export const shouldRevalidate = rootRevalidation;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await currentUser(request);
  // A plain object, as single fetch takes it: no stringify and parse back on every request.
  return { user: user ? { displayName: user.displayName, role: user.role } : null };
}

/** The signed-in user (or null) from the root loader; absent on the error page when the loader failed. */
function useViewer() {
  const data = useRouteLoaderData<typeof loader>("root");
  return data?.user ?? null;
}

function MainNav() {
  // The error page renders without loader data; the nav then shows only the public links.
  const user = useViewer();
  return (
    <nav aria-label="Main" className="main-nav">
      {user?.role === "admin" ? (
        <>
          <NavLink to="/admin/studies">Studies</NavLink>
          <NavLink to="/admin/annotators">Annotators</NavLink>
          <NavLink to="/scenarios">Scenarios</NavLink>
          <NavLink to="/runs">Runs</NavLink>
          <NavLink to="/benchmark">Benchmark</NavLink>
        </>
      ) : null}
      {user && user.role !== "admin" ? <NavLink to="/annotate">My tasks</NavLink> : null}
      {user ? null : <NavLink to="/login">Log in</NavLink>}
    </nav>
  );
}

/** Who is signed in, and the way out; kept beside the nav so it stays in view on phones. */
function AccountBox() {
  const user = useViewer();
  if (!user) return null;
  return (
    <Form method="post" action="/logout" className="nav-logout">
      <span className="nav-user" title={`${user.displayName} · ${user.role}`}>
        {user.displayName}
      </span>
      <span className="role-chip">{user.role}</span>
      <button type="submit" className="header-button">
        Log out
      </button>
    </Form>
  );
}

/**
 * Routes shown inside another site's frame (MTurk's ExternalQuestion) set `handle = { framed: true }`: no site header
 * there.
 */
function useFramed(): boolean {
  return useMatches().some((m) => (m.handle as { framed?: boolean } | undefined)?.framed === true);
}

export function Layout({ children }: { children: ReactNode }) {
  const framed = useFramed();
  const nonce = useCspNonce();
  // Marks the page as live (its keys, forms and controls answer), for whoever waits for that: the browser tests.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    // THEME_SCRIPT sets data-theme on <html> before React hydrates it: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script of ours, needed before first paint */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body>
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        {framed ? null : (
          <header className="site-header">
            <Link to="/" className="brand">
              SoCRATES <span>Studio</span>
            </Link>
            <MainNav />
            <AccountBox />
            <ThemeToggle />
          </header>
        )}
        {/* tabIndex -1: the skip link moves keyboard focus here, not only the scroll position. */}
        <main id="main" tabIndex={-1} className="page">
          {children}
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The second way out of an error page: somewhere this viewer is allowed to go. */
function OwnStartLink() {
  const user = useViewer();
  if (!user) return <Link to="/login">Log in</Link>;
  if (user.role === "admin") return <Link to="/admin/studies">Studies</Link>;
  return <Link to="/annotate">My tasks</Link>;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return (
      <section className="error-page">
        <h1>
          {error.status} {error.status === 404 ? "Not found" : error.status === 403 ? "Forbidden" : error.statusText}
        </h1>
        <p>
          {typeof error.data === "string" && error.data
            ? error.data
            : error.status === 403
              ? "You do not have access to this page."
              : "That page does not exist."}
        </p>
        <p className="error-links">
          <Link to="/">Back to the start page</Link> · <OwnStartLink />
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
      <p className="error-links">
        <Link to="/">Back to the start page</Link>
      </p>
    </section>
  );
}
