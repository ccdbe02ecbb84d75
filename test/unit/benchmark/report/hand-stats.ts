/** Spearman ρ and Kendall τ-b written out plainly, to check the report's rank agreement against. */

function ranksDescending(values: number[]): number[] {
  return values.map((v) => {
    const above = values.filter((o) => o > v).length;
    const same = values.filter((o) => o === v).length;
    return above + (same + 1) / 2;
  });
}

export function handSpearman(a: number[], b: number[]): number {
  const ra = ranksDescending(a);
  const rb = ranksDescending(b);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

export function handKendallTauB(a: number[], b: number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const x = Math.sign(a[i] - a[j]);
      const y = Math.sign(b[i] - b[j]);
      if (x === 0 && y === 0) continue;
      if (x === 0) tiesA++;
      else if (y === 0) tiesB++;
      else if (x === y) concordant++;
      else discordant++;
    }
  }
  return (concordant - discordant) / Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
}

export function plainMean(values: (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) if (v !== null) (sum += v), n++;
  return n === 0 ? null : sum / n;
}
