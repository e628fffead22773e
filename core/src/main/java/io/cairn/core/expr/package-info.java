/**
 * Cairn's expression IR ({@link io.cairn.core.expr.Expr}, {@link io.cairn.core.expr.Op}), its
 * evaluator ({@link io.cairn.core.expr.ExprCompiler}, {@link io.cairn.core.expr.Values}) and its
 * kept binary form ({@link io.cairn.core.expr.ExprSerializer}: an index's expressions in the
 * catalog).
 *
 * <p>A scan's filter runs over a row's bytes as a {@link io.cairn.core.expr.RowFilter}; its numeric
 * part also runs over a block's column vectors ({@link io.cairn.core.expr.ColumnVectors}) as the
 * {@link io.cairn.core.expr.VectorFilter} that {@link io.cairn.core.expr.RowFilter#vectorFilter()}
 * gives, which selects the rows for which it is TRUE: exactly those the RowFilter keeps when {@link
 * io.cairn.core.expr.VectorFilter#complete()}, else a superset for the RowFilter to test.
 *
 * <h2>What the evaluator expects from the planner</h2>
 *
 * <ul>
 *   <li>Values are the Java classes documented on {@link io.cairn.core.type.TypeName}. Literals and
 *       parameters of another class are converted to their declared type (once for literals, per
 *       evaluation for parameters); column values are trusted.
 *   <li>PLUS, MINUS, TIMES, DIVIDE, MOD: two numeric (or interval) operands of any numeric types;
 *       computed in the call's type: integer types as long with overflow check and truncating
 *       division (a DECIMAL/DOUBLE operand with an integer result: computed exactly, then rounded
 *       HALF_UP); DECIMAL exactly, rounded HALF_UP to the result scale (DIVIDE divides straight to
 *       that scale); FLOAT/DOUBLE as IEEE doubles except that division or MOD by zero fails, as in
 *       PostgreSQL. MOD takes the sign of the dividend. With a DATE/TIME/TIMESTAMP result, PLUS and
 *       MINUS act as DATETIME_PLUS/DATETIME_MINUS; MINUS of two datetimes with an interval result
 *       acts as DATETIME_DIFF.
 *   <li>Comparisons, IS [NOT] DISTINCT FROM, IN, NULLIF, GREATEST, LEAST: operands of comparable
 *       types: any numerics (compared exactly, also INTEGER vs DOUBLE), strings (code point order;
 *       if either operand is CHAR, trailing spaces are ignored), BOOLEAN, VARBINARY (unsigned),
 *       DATE vs TIMESTAMP (date at midnight), TIME. A string compared with a number is parsed as a
 *       number. Anything else: TYPE_MISMATCH at evaluation.
 *   <li>AND and OR take two or more operands. GREATEST/LEAST ignore NULLs (PostgreSQL and H2).
 *   <li>CASE, COALESCE, NULLIF, GREATEST, LEAST: operands whose type differs from the call's type
 *       are converted to it (numeric widening, DECIMAL rescaling); strings are never truncated.
 *   <li>Operands that must be literals: the TRIM flag, the EXTRACT and FLOOR/CEIL_DATETIME unit.
 *       LIKE patterns may be any expression; literal ones are compiled once.
 *   <li>String functions take VARCHAR/CHAR operands (CONCAT and LIKE also accept others and use
 *       their text); integer arguments (lengths, positions, counts) may be any exact type. LIKE's
 *       default escape is backslash (PostgreSQL, H2); an empty ESCAPE disables escaping.
 *       LTRIM/RTRIM: {@code string [, characters]}; LPAD/RPAD: {@code string, length [, fill]};
 *       LEFT/RIGHT: {@code string, n} (negative n as PostgreSQL); REPEAT: {@code string, n}.
 *   <li>Numeric functions: ABS, CEIL, FLOOR, ROUND, TRUNCATE, SIGN work in the operand's type and
 *       convert to the call's type; ROUND is HALF_UP (away from zero) also for doubles (via their
 *       shortest decimal text, so ROUND(2.675, 2) = 2.68). POWER, SQRT, EXP, LN, LOG10 work in
 *       double and convert to the call's type.
 *   <li>EXTRACT accepts DATE, TIME, TIMESTAMP and intervals. SECOND and EPOCH carry the fraction
 *       when the call's type is DECIMAL or DOUBLE, else they are whole seconds.
 * </ul>
 *
 * <h2>Errors</h2>
 *
 * NUMERIC_OUT_OF_RANGE (overflow, range checks), DIVISION_BY_ZERO, INVALID_CAST (malformed text),
 * INVALID_DATETIME (impossible dates, datetime overflow), INVALID_ARGUMENT (SQRT(-1), LN(0),
 * negative SUBSTRING length, unknown units), INVALID_ESCAPE, PARAMETER_NOT_SET, TYPE_MISMATCH.
 * Calls whose operands are all literals are folded at compile time unless folding fails; then the
 * error is raised only if the call is evaluated.
 */
package io.cairn.core.expr;
