package io.cairn.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.ScanProgram;
import io.cairn.protocol.PutHashCache;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A probing scan program and a join's build side on the wire. */
class TestWireHashJoins {
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.decimal(10, 2))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  @Test
  void aProbingProgramRoundTrips() {
    Expr price = new Expr.ColumnRef(1, DataType.decimal(10, 2));
    Expr buildName = new Expr.ColumnRef(4, DataType.VARCHAR);
    Expr residual =
        new Expr.Call(
            Op.NOT_EQUALS,
            List.of(buildName, new Expr.Literal("x", DataType.VARCHAR)),
            DataType.BOOLEAN);
    for (HashProbe.Kind kind : HashProbe.Kind.values()) {
      ScanProgram program =
          new ScanProgram(
              LAYOUT,
              Optional.empty(),
              List.of(new Expr.ColumnRef(0, DataType.BIGINT), buildName),
              ScanProgram.NO_LIMIT,
              0,
              List.of(),
              List.of(),
              List.of(),
              Optional.of(
                  new HashProbe(
                      "cache-" + kind,
                      List.of(price),
                      kind,
                      List.of(DataType.decimal(10, 2), DataType.VARCHAR),
                      Optional.of(residual),
                      kind == HashProbe.Kind.ANTI)));
      assertThat(WirePrograms.fromProto(WirePrograms.toProto(program))).isEqualTo(program);
      // one pass of some partitions, without the key filter
      HashProbe pass = program.probe().orElseThrow().inPass("pass-1", 0x8000_0000_0000_0005L);
      ScanProgram passProgram = program.withProbe(Optional.of(pass.withKeyFilter(false)));
      assertThat(WirePrograms.fromProto(WirePrograms.toProto(passProgram))).isEqualTo(passProgram);
      if (kind == HashProbe.Kind.INNER) {
        // a mark join's probe: each build row joined once
        ScanProgram marking = program.withProbe(Optional.of(pass.marking()));
        assertThat(WirePrograms.fromProto(WirePrograms.toProto(marking))).isEqualTo(marking);
        assertThat(WirePrograms.fromProto(WirePrograms.toProto(marking)).probe().get().marks())
            .isTrue();
      }
    }
  }

  @Test
  void aProjectionPastTheJoinedRowIsMalformed() {
    ScanProgram program =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.of(new Expr.ColumnRef(5, DataType.VARCHAR)),
            ScanProgram.NO_LIMIT,
            0,
            List.of(),
            List.of(),
            List.of(),
            Optional.of(
                new HashProbe(
                    "c",
                    List.of(new Expr.ColumnRef(0, DataType.BIGINT)),
                    HashProbe.Kind.INNER,
                    List.of(DataType.BIGINT, DataType.VARCHAR),
                    Optional.empty(),
                    false)));
    assertThatThrownBy(() -> WirePrograms.fromProto(WirePrograms.toProto(program)))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[5]");
  }

  @Test
  void aBuildSideRoundTripsWithItsNullKey() {
    JoinHashTable.Builder b = JoinHashTable.builder(2, List.of(1, 0));
    b.add(new Object[] {new BigDecimal("1.50"), "a"});
    b.add(new Object[] {new BigDecimal("1.5"), "a"});
    b.add(new Object[] {new BigDecimal("2"), "b"});
    b.add(new Object[] {null, "n"});
    JoinHashTable table = b.build();
    PutHashCache put = WireHashTables.toProto("c1", table);
    JoinHashTable decoded = WireHashTables.fromProto(put);
    assertThat(decoded.keyColumns()).containsExactly(1, 0);
    assertThat(decoded.keyCount()).isEqualTo(2);
    assertThat(decoded.hasNullKey()).isTrue();
    assertThat(
            decoded.matches(
                GroupKey.of(new Object[] {"a", new BigDecimal("1.500")}, new int[] {0, 1})))
        .hasSize(2);
    assertThat(decoded.matches(GroupKey.of(new Object[] {"b", null}, new int[] {0, 1}))).isEmpty();
  }

  /** A build side of more than a few KB travels LZ4-compressed when that is smaller. */
  @Test
  void aLargeBuildSideTravelsCompressed() {
    JoinHashTable.Builder b = JoinHashTable.builder(2, List.of(0));
    for (int i = 0; i < 2_000; i++) {
      b.add(new Object[] {(long) i, "name-" + (i % 10)});
    }
    JoinHashTable table = b.build();
    PutHashCache put = WireHashTables.toProto("c2", table);
    assertThat(put.getRows().isEmpty()).isTrue();
    assertThat(put.getRowsLz4().size()).isLessThan(put.getRowsBytes());
    assertThat(WireHashTables.rowsBytes(put)).isEqualTo(put.getRowsBytes());
    JoinHashTable decoded = WireHashTables.fromProto(put);
    assertThat(decoded.keyCount()).isEqualTo(2_000);
    assertThat(decoded.matches(GroupKey.of(new Object[] {1_234L}, new int[] {0})))
        .singleElement()
        .satisfies(row -> assertThat(row[1]).isEqualTo("name-4"));

    // a length the compressed rows do not decompress to, or one LZ4 cannot reach
    for (int length :
        new int[] {put.getRowsBytes() - 1, put.getRowsBytes() + 1, -1, Integer.MAX_VALUE}) {
      PutHashCache bad = put.toBuilder().setRowsBytes(length).build();
      assertThatThrownBy(() -> WireHashTables.fromProto(bad))
          .as("length %s", length)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
    }
    // a small one travels as it is
    PutHashCache small = WireHashTables.toProto("c3", JoinHashTable.builder(1, List.of(0)).build());
    assertThat(small.getRowsLz4().isEmpty()).isTrue();
  }
}
