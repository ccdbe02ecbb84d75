import { Link } from "@remix-run/react";
import { isReportCell, type ReportTable, type ReportValue } from "../../domain/benchmark/report-model.ts";
import { AVG } from "../../domain/benchmark/report/rows.ts";
import { cellTitle, formatMean, heatRanges, heatStyle } from "../../domain/benchmark/report-view.ts";
import { ScrollX } from "../ScrollX.tsx";
import { TermOrText } from "../Term.tsx";

interface Props {
  table: ReportTable;
  /** Where a cell's runs are listed; null for a cell no run entered. */
  cellHref?: (rowKey: string, columnKey: string) => string | null;
  /** Shade mean cells by value within their column group. */
  heat?: boolean;
}

/** The column-group header row (Table 3: the metric above its domains), or null when no column has a group. */
function GroupHeader({ table }: { table: ReportTable }) {
  if (!table.columns.some((c) => c.group)) return null;
  const spans: { group: string; span: number }[] = [];
  for (const c of table.columns) {
    const group = c.group ?? "";
    const last = spans[spans.length - 1];
    if (last && last.group === group) last.span += 1;
    else spans.push({ group, span: 1 });
  }
  return (
    <tr>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty corner cell; a th is not focusable */}
      <th aria-hidden="true" />
      {spans.map((s, i) => (
        <th key={i} colSpan={s.span} scope="colgroup">
          <TermOrText text={s.group} />
        </th>
      ))}
    </tr>
  );
}

function CellContent({ value, scale }: { value: ReportValue; scale: ReportTable["scale"] }) {
  if (!isReportCell(value)) return <>{value.text}</>;
  return (
    <>
      {formatMean(value.mean, scale)}
      <small className="cell-n"> ({value.n})</small>
    </>
  );
}

/**
 * A report table as an HTML table: every mean with its count, the numbers behind it on hover, each cell linked to its
 * runs.
 */
export function ReportTableView({ table, cellHref, heat = false }: Props) {
  const ranges = heat ? heatRanges(table) : null;
  // The caption and notes are shown outside the scrolling box, so they wrap to the screen rather
  // than to the table's width; the table keeps its caption for screen readers.
  return (
    <>
      {table.caption ? (
        <p className="report-caption muted" aria-hidden="true">
          {table.caption}
        </p>
      ) : null}
      <ScrollX label={table.title}>
        <table className="data-table report-table" data-testid={`report-${table.id}`}>
          <caption className="visually-hidden">{table.caption}</caption>
          <thead>
            <GroupHeader table={table} />
            <tr>
              <th scope="col">{table.rowLabel ?? (table.rows.some((r) => r.group) ? "Mediator" : "")}</th>
              {table.columns.map((c) => (
                <th key={c.key} scope="col" className="num">
                  <TermOrText text={c.label} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.key} className={row.key === AVG ? "total-row" : undefined}>
                <th scope="row">
                  {row.label}
                  {row.group ? <small className="muted row-group">{row.group}</small> : null}
                </th>
                {table.columns.map((c) => {
                  const value = row.cells[c.key];
                  if (value === undefined)
                    return (
                      <td key={c.key} className="num muted">
                        —
                      </td>
                    );
                  const href =
                    isReportCell(value) && value.runIds.length > 0 ? (cellHref?.(row.key, c.key) ?? null) : null;
                  const style = ranges ? (heatStyle(table, ranges, c.key, value) ?? undefined) : undefined;
                  return (
                    <td key={c.key} className="num" style={style} title={cellTitle(value, table.scale)}>
                      {href ? (
                        <Link to={href} className="cell-link" style={style ? { color: style.color } : undefined}>
                          <CellContent value={value} scale={table.scale} />
                        </Link>
                      ) : (
                        <CellContent value={value} scale={table.scale} />
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      {table.notes.length > 0 ? (
        <ul className="report-notes muted">
          {table.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
