package io.cairn.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexSpec;
import io.cairn.protocol.IndexDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A local index's definition as an HBase region server receives it to build its entries. */
class TestWireIndexDefinitions {
  private static final RowLayout TABLE =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.INTEGER.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, DataType.varchar(20))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          2);

  private static final IndexSpec INDEX =
      new IndexSpec(
          7,
          List.of(
              new Expr.Call(
                  Op.NEGATE, List.of(new Expr.ColumnRef(1, DataType.INTEGER)), DataType.INTEGER),
              new Expr.ColumnRef(2, DataType.varchar(20))),
          List.of(SortOrder.DESC, SortOrder.ASC),
          List.of(2),
          true);

  @Test
  void anIndexAndItsTablesLayoutRoundTrip() {
    IndexDefinition message = WirePrograms.toProto(TABLE, INDEX);
    assertThat(WirePrograms.fromProto(message)).isEqualTo(INDEX);
    assertThat(WirePrograms.fromProto(message.getTable())).isEqualTo(TABLE);
  }

  @Test
  void malformedDefinitionsAreProtocolErrors() {
    IndexDefinition good = WirePrograms.toProto(TABLE, INDEX);
    for (IndexDefinition bad :
        List.of(
            good.toBuilder().clearTable().build(),
            good.toBuilder().addDescending(true).build(),
            good.toBuilder().addInclude(3).build(),
            good.toBuilder().clearParts().clearDescending().build())) {
      assertThatThrownBy(() -> WirePrograms.fromProto(bad))
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
    }
  }
}
