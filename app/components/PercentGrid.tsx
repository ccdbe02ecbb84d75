/** Horizontal grid lines at 0, 25, 50, 75 and 100 % with their labels, for the consensus charts. */
export function PercentGrid({ y, left, right }: { y: (v: number) => number; left: number; right: number }) {
  return (
    <>
      {[0, 0.25, 0.5, 0.75, 1].map((v) => (
        <g key={v}>
          <line x1={left} x2={right} y1={y(v)} y2={y(v)} className="grid" />
          <text x={left - 8} y={y(v) + 4} textAnchor="end" className="tick">
            {v * 100}%
          </text>
        </g>
      ))}
    </>
  );
}
