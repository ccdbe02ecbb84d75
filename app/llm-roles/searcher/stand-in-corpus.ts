/**
 * The stand-in search server's disputes: invented, deterministic, twelve a domain, so searches in
 * different domains and rounds find different disputes. Shared by the search server (which
 * serves them as results and pages) and the searcher responder (which reports them). These are
 * stand-in data, not real events.
 */
import { DOMAINS, type Domain } from "../../domain/bundle.ts";
import type { SeedReport } from "../../domain/curation/seed.ts";

/** A seed report without its sources (the server adds its own page), with where it belongs. */
export type StandInDispute = Omit<SeedReport, "sources"> & { domain: Domain; slug: string };

const PLACES = [
  "Alder Bay",
  "Birchfield",
  "Cedar Falls",
  "Dunmore",
  "Elmstead",
  "Fernhill",
  "Glenrock",
  "Harrow Point",
  "Ivydale",
  "Juniper Ridge",
  "Kestrel Cove",
  "Larchmont",
];

/** Per domain: the dispute's subject, the two sides, the contested issues and the tension behind it. */
const SHAPES: Record<Domain, { subject: string; a: string; b: string; issues: string[]; tension: string }> = {
  transactional: {
    subject: "home sale deposit",
    a: "Buyer family",
    b: "Seller estate",
    issues: ["return of the deposit", "repair credits", "closing date"],
    tension: "contract deadlines against a lender's delays",
  },
  healthcare: {
    subject: "hospital unit closure",
    a: "Regional Hospital Group",
    b: "County Health Board",
    issues: ["emergency access", "staff redeployment", "replacement services"],
    tension: "an operator's finances against a regulator's mandate",
  },
  environmental: {
    subject: "river water allocation",
    a: "Upstream Farmers Cooperative",
    b: "Downstream Town Council",
    issues: ["dry-season quotas", "dam release schedule", "pollution monitoring"],
    tension: "agricultural livelihoods against municipal supply",
  },
  "business-to-business": {
    subject: "supply contract breach",
    a: "Component Maker",
    b: "Assembly Plant Operator",
    issues: ["late-delivery penalties", "price indexation", "exclusivity"],
    tension: "a small supplier's dependence on one large customer",
  },
  "public-policy": {
    subject: "transit fare reform",
    a: "Transit Authority",
    b: "Riders Association",
    issues: ["fare levels", "service cuts", "concessions for students"],
    tension: "a budget gap against equitable access",
  },
  international: {
    subject: "fishing rights",
    a: "Coastal Republic Ministry",
    b: "Neighbouring Kingdom Fisheries Office",
    issues: ["catch quotas", "boundary patrols", "compensation for seized vessels"],
    tension: "sovereignty claims against shared stocks",
  },
  legal: {
    subject: "wrongful dismissal claim",
    a: "Former Warehouse Manager",
    b: "Logistics Firm",
    issues: ["severance", "reference letter", "confidentiality"],
    tension: "employment law against a firm's reputation",
  },
  "intra-organizational": {
    subject: "department merger",
    a: "Research Division",
    b: "Product Division",
    issues: ["budget control", "reporting lines", "remote work rules"],
    tension: "scientific autonomy against delivery pressure",
  },
};

function dispute(domain: Domain, index: number): StandInDispute {
  const shape = SHAPES[domain];
  const place = PLACES[index];
  // 2019–2022 for the first four, then 2011–2018: every dispute starts in the past.
  const year = index < 4 ? 2019 + index : 2007 + index;
  return {
    domain,
    slug: `${domain}-${index + 1}`,
    title: `${place} ${shape.subject} dispute`,
    summary: `In ${place}, the ${shape.a} and the ${shape.b} have been at odds over a ${shape.subject} since ${year}; talks have repeatedly stalled.`,
    parties: [
      { name: `${place} ${shape.a}`, description: `The side pressing its claim over the ${shape.subject}.` },
      { name: `${place} ${shape.b}`, description: `The side resisting the claim over the ${shape.subject}.` },
    ],
    issues: shape.issues.slice(0, 2 + (index % 2)),
    timeline: [
      { date: `${year}-03`, event: `The dispute over the ${shape.subject} becomes public.` },
      { date: `${year}-09`, event: "A first round of talks ends without agreement." },
      { date: `${year + 1}-02`, event: "Both sides harden their positions in public statements." },
    ],
    tensions: [shape.tension],
    status: index % 2 === 0 ? "unresolved; talks suspended" : "in formal mediation, no agreement yet",
  };
}

export const STAND_IN_DISPUTES: StandInDispute[] = DOMAINS.flatMap((domain) =>
  PLACES.map((_, i) => dispute(domain, i)),
);

export function disputesFor(domain: Domain): StandInDispute[] {
  return STAND_IN_DISPUTES.filter((d) => d.domain === domain);
}

export function pagePath(d: StandInDispute): string {
  return `/pages/${d.slug}`;
}

/** The page the search server serves for a dispute: real HTML with furniture the reducer must drop. */
export function pageHtml(d: StandInDispute): string {
  const items = (xs: string[]) => xs.map((x) => `<li>${x}</li>`).join("");
  return `<!doctype html><html><head><title>${d.title} | Stand-in News</title><style>body{font:14px serif}</style>
<script>window.tracker = "<p>never shown</p>";</script></head><body>
<nav><a href="/">Stand-in News</a> &middot; <a href="/world">World</a></nav>
<article><h1>${d.title}</h1><p>${d.summary}</p>
<h2>Who is involved</h2><ul>${items(d.parties.map((p) => `${p.name}: ${p.description}`))}</ul>
<h2>What is contested</h2><ul>${items(d.issues)}</ul>
<h2>Timeline</h2><ul>${items(d.timeline.map((t) => `${t.date} &ndash; ${t.event}`))}</ul>
<p>Observers point to ${d.tensions.join("; ")}. Status: ${d.status}.</p></article>
<footer>Stand-in page for tests; not a real event.</footer></body></html>`;
}
