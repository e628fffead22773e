package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The probe step of a scan program against a nested-loop reference of each join kind. */
class TestProgramScannerProbe {
  /** Key K BIGINT; V INTEGER (nullable). Joined row: K 0, V 1, row key 2, B 3, NAME 4. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final Expr K = new Expr.ColumnRef(0, DataType.BIGINT);
  private static final Expr V = new Expr.ColumnRef(1, DataType.INTEGER);
  private static final Expr B = new Expr.ColumnRef(3, DataType.INTEGER);
  private static final Expr NAME = new Expr.ColumnRef(4, DataType.VARCHAR);
  private static final List<DataType> BUILD_TYPES = List.of(DataType.INTEGER, DataType.VARCHAR);
  private static final EvalContext CONTEXT =
      new EvalContext(new Object[0], LocalDateTime.of(2024, 2, 29, 0, 0));

  private static List<Object[]> probeRows() {
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(new Object[] {(long) i, i % 5 == 0 ? null : i % 7});
    }
    return rows;
  }

  private static List<Object[]> buildRows(boolean withNullKey) {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {1, "a"});
    rows.add(new Object[] {2, "b"});
    rows.add(new Object[] {2, "b2"});
    rows.add(new Object[] {4, "d"});
    rows.add(new Object[] {9, "never"});
    if (withNullKey) {
      rows.add(new Object[] {null, "null"});
    }
    return rows;
  }

  /** The residual {@code NAME <> 'b2'}. */
  private static final Expr NOT_B2 =
      new Expr.Call(
          Op.NOT_EQUALS, List.of(NAME, new Expr.Literal("b2", DataType.VARCHAR)), DataType.BOOLEAN);

  private static JoinHashTable table(List<Object[]> rows) {
    JoinHashTable.Builder b = JoinHashTable.builder(2, List.of(0));
    rows.forEach(b::add);
    return b.build();
  }

  private static List<Bytes[]> cells() {
    RowCodec codec = new RowCodec(LAYOUT);
    List<Bytes[]> cells = new ArrayList<>();
    for (Object[] row : probeRows()) {
      cells.add(new Bytes[] {codec.encodeKey(row), codec.encodeValue(row)});
    }
    return cells;
  }

  private static List<Object[]> run(ScanProgram program, JoinHashTable table) {
    HashCacheLookup lookup = id -> id.equals("c1") ? table : null;
    List<Object[]> out = new ArrayList<>();
    try (ProgramScanner scanner =
        new ProgramScanner(
            new TestingRowCursor(cells(), false), program, CONTEXT, 1 << 20, null, false, lookup)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        out.add(row);
      }
    }
    return out;
  }

  private static ScanProgram program(HashProbe probe, List<Expr> projection) {
    return new ScanProgram(
        LAYOUT,
        Optional.of(
            new Expr.Call(
                Op.LESS_THAN,
                List.of(K, new Expr.Literal(2000L, DataType.BIGINT)),
                DataType.BOOLEAN)),
        projection,
        ScanProgram.NO_LIMIT,
        0,
        List.of(),
        List.of(),
        List.of(),
        Optional.of(probe));
  }

  private static HashProbe probe(HashProbe.Kind kind, Optional<Expr> residual, boolean nullAware) {
    return new HashProbe("c1", List.of(V), kind, BUILD_TYPES, residual, nullAware);
  }

  /** The nested-loop answer: probe rows with K < 2000, [K, V, B, NAME] (or [K, V]). */
  private static List<Object[]> reference(
      HashProbe.Kind kind, List<Object[]> build, boolean residualNotB2, boolean nullAware) {
    List<Object[]> out = new ArrayList<>();
    boolean buildHasNull = build.stream().anyMatch(r -> r[0] == null);
    for (Object[] p : probeRows()) {
      if ((long) p[0] >= 2000) {
        continue;
      }
      List<Object[]> matches = new ArrayList<>();
      for (Object[] b : build) {
        if (p[1] != null
            && b[0] != null
            && p[1].equals(b[0])
            && !(residualNotB2 && "b2".equals(b[1]))) {
          matches.add(b);
        }
      }
      switch (kind) {
        case INNER -> matches.forEach(b -> out.add(new Object[] {p[0], p[1], b[0], b[1]}));
        case LEFT -> {
          matches.forEach(b -> out.add(new Object[] {p[0], p[1], b[0], b[1]}));
          if (matches.isEmpty()) {
            out.add(new Object[] {p[0], p[1], null, null});
          }
        }
        case SEMI -> {
          if (!matches.isEmpty()) {
            out.add(new Object[] {p[0], p[1]});
          }
        }
        case ANTI -> {
          boolean unknown = nullAware && !build.isEmpty() && (p[1] == null || buildHasNull);
          if (matches.isEmpty() && !unknown) {
            out.add(new Object[] {p[0], p[1]});
          }
        }
      }
    }
    return out;
  }

  private static void assertRows(List<Object[]> actual, List<Object[]> expected) {
    assertThat(actual).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as("row " + i).containsExactly(expected.get(i));
    }
  }

  @Test
  void probesEachKindLikeANestedLoop() {
    for (boolean nullKey : new boolean[] {false, true}) {
      List<Object[]> build = buildRows(nullKey);
      JoinHashTable table = table(build);
      for (HashProbe.Kind kind : HashProbe.Kind.values()) {
        for (boolean residual : new boolean[] {false, true}) {
          List<Expr> projection =
              kind == HashProbe.Kind.SEMI || kind == HashProbe.Kind.ANTI
                  ? List.of(K, V)
                  : List.of(K, V, B, NAME);
          ScanProgram program =
              program(
                  probe(kind, residual ? Optional.of(NOT_B2) : Optional.empty(), false),
                  projection);
          assertRows(run(program, table), reference(kind, build, residual, false));
        }
      }
      ScanProgram notIn =
          program(probe(HashProbe.Kind.ANTI, Optional.empty(), true), List.of(K, V));
      assertRows(run(notIn, table), reference(HashProbe.Kind.ANTI, build, false, true));
    }
  }

  /**
   * Keys found as longs (LongKeyIndex): two key columns (V twice against B twice), and keys of
   * another class than the probe's (Long build keys for INTEGER probe values: equal to none).
   */
  @Test
  void keysOfLongsAndOfTwoColumnsProbeLikeANestedLoop() {
    List<Object[]> build = buildRows(true);
    JoinHashTable.Builder twice = JoinHashTable.builder(2, List.of(0, 0));
    build.forEach(twice::add);
    HashProbe onBoth =
        new HashProbe(
            "c1", List.of(V, V), HashProbe.Kind.INNER, BUILD_TYPES, Optional.empty(), false);
    assertRows(
        run(program(onBoth, List.of(K, V, B, NAME)), twice.build()),
        reference(HashProbe.Kind.INNER, build, false, false));
    JoinHashTable.Builder longs = JoinHashTable.builder(2, List.of(0));
    for (Object[] row : build) {
      longs.add(new Object[] {row[0] == null ? null : ((Integer) row[0]).longValue(), row[1]});
    }
    HashProbe inner = probe(HashProbe.Kind.INNER, Optional.empty(), false);
    assertThat(run(program(inner, List.of(K, V, B, NAME)), longs.build())).isEmpty();
    HashProbe anti = probe(HashProbe.Kind.ANTI, Optional.empty(), false);
    assertThat(run(program(anti, List.of(K, V)), longs.build())).hasSize(2000);
  }

  /**
   * A probe that marks joins each build row to its first match only: the build rows of its output
   * are those of the INNER join, each once, with their first probe row; with a residual too.
   */
  @Test
  void aMarkingProbeJoinsEachBuildRowOnce() {
    List<Object[]> build = buildRows(true);
    JoinHashTable table = table(build);
    for (boolean residual : new boolean[] {false, true}) {
      HashProbe inner =
          probe(HashProbe.Kind.INNER, residual ? Optional.of(NOT_B2) : Optional.empty(), false);
      List<Expr> projection = List.of(K, V, B, NAME);
      List<Object[]> all = run(program(inner, projection), table);
      List<Object[]> marked = run(program(inner.marking(), projection), table);
      java.util.Map<Object, Object[]> firsts = new java.util.LinkedHashMap<>();
      for (Object[] row : all) {
        firsts.putIfAbsent(row[3], row); // build rows differ by NAME
      }
      assertThat(all.size()).isGreaterThan(firsts.size()); // rows matched the same build rows
      assertRows(marked, new ArrayList<>(firsts.values()));
    }
    assertThatThrownBy(() -> probe(HashProbe.Kind.SEMI, Optional.empty(), false).marking())
        .hasMessageContaining("Only an INNER probe marks");
  }

  @Test
  void notInOverAnEmptyBuildKeepsEveryRow() {
    ScanProgram notIn = program(probe(HashProbe.Kind.ANTI, Optional.empty(), true), List.of(K, V));
    assertThat(run(notIn, table(List.of()))).hasSize(2000);
  }

  @Test
  void aggregatesAndSortsTheJoinedRows() {
    List<Object[]> build = buildRows(true);
    JoinHashTable table = table(build);
    long expected = reference(HashProbe.Kind.INNER, build, false, false).size();
    ScanProgram count =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(),
            ScanProgram.NO_LIMIT,
            0,
            List.of(),
            List.of(new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT)),
            List.of(),
            Optional.of(probe(HashProbe.Kind.INNER, Optional.empty(), false)));
    // no filter here: every probe row (3000)
    long all =
        probeRows().stream()
            .filter(p -> p[1] != null)
            .mapToLong(p -> build.stream().filter(b -> Objects.equals(b[0], p[1])).count())
            .sum();
    assertThat(run(count, table)).singleElement().satisfies(r -> assertThat(r[0]).isEqualTo(all));
    assertThat(all).isGreaterThan(expected);

    ScanProgram top =
        program(probe(HashProbe.Kind.INNER, Optional.empty(), false), List.of(K, NAME))
            .withProbe(Optional.of(probe(HashProbe.Kind.INNER, Optional.empty(), false)));
    top =
        new ScanProgram(
            top.layout(),
            top.filter(),
            top.projection(),
            3,
            0,
            List.of(),
            List.of(),
            List.of(new SortKey(1, true, false), new SortKey(0, true, false)),
            top.probe());
    List<Object[]> rows = run(top, table);
    assertThat(rows.stream().map(Arrays::asList).toList())
        .containsExactly(List.of(1999L, "d"), List.of(1992L, "d"), List.of(1978L, "d"));
  }

  @Test
  void aMissingCacheFailsClearly() {
    ScanProgram program =
        program(probe(HashProbe.Kind.INNER, Optional.empty(), false), List.of(K, V, B, NAME))
            .withProbe(
                Optional.of(
                    new HashProbe(
                        "gone",
                        List.of(V),
                        HashProbe.Kind.INNER,
                        BUILD_TYPES,
                        Optional.empty(),
                        false)));
    assertThatThrownBy(() -> run(program, table(buildRows(false))))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[gone]")
        .satisfies(
            e ->
                assertThat(((CairnException) e).errorCode())
                    .isEqualTo(ErrorCode.HASH_CACHE_NOT_FOUND));
  }
}
