// Minimal typings for the parts of jstat we use (the package ships none). jstat is a UMD
// bundle, so under ESM only the default export exists.
declare module "jstat" {
  interface JStatStatic {
    /** Regularized incomplete beta function I_x(a, b); `false` when x is outside [0, 1]. */
    ibeta(x: number, a: number, b: number): number | false;
    /** Complementary error function. */
    erfc(x: number): number;
  }
  const jStat: JStatStatic;
  export default jStat;
}
