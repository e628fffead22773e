package io.cairn.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestDescriptorSerializer {
  /**
   * ORDERS (ID BIGINT NOT NULL PRIMARY KEY DESC, NAME VARCHAR(20), PRICE DECIMAL(15,2)) TTL=3600,
   * table id 42, as format version 1 wrote it (before indexes): read on every build.
   */
  private static final String VERSION_1 =
      "01000000000000002a00065055424c494300064f52444552530000000100000003000249440000000105ffffffff"
          + "000000000000044e414d45000000020a0000001400000000010005505249434500000003080000000f0000"
          + "00020100000001000000000100000001000354544c000433363030";

  private static final TableDescriptor ORDERS =
      new TableDescriptor(
          42,
          "PUBLIC",
          "ORDERS",
          List.of(
              new ColumnDescriptor("ID", 1, DataType.BIGINT.withNullable(false)),
              new ColumnDescriptor("NAME", 2, DataType.varchar(20)),
              new ColumnDescriptor("PRICE", 3, DataType.decimal(15, 2))),
          List.of(new KeyColumn(0, SortOrder.DESC)),
          Map.of("TTL", "3600"),
          1);

  private static final IndexDescriptor BY_NAME =
      new IndexDescriptor(
          3,
          "ORDERS_BY_NAME",
          List.of(
              new IndexColumn(new Expr.ColumnRef(1, DataType.varchar(20)), "NAME", SortOrder.ASC)),
          List.of(2),
          State.ACTIVE);

  private static final IndexDescriptor BY_UPPER_NAME_PRICE =
      new IndexDescriptor(
          7,
          "ORDERS_BY_UPPER",
          List.of(
              new IndexColumn(
                  new Expr.Call(
                      Op.UPPER,
                      List.of(new Expr.ColumnRef(1, DataType.varchar(20))),
                      DataType.varchar(20)),
                  "UPPER(NAME)",
                  SortOrder.DESC),
              new IndexColumn(
                  new Expr.ColumnRef(2, DataType.decimal(15, 2)), "PRICE", SortOrder.ASC)),
          List.of(),
          State.BUILDING);

  @Test
  void readsTheVersionOneEntryOfAnEarlierRelease() {
    TableDescriptor read = DescriptorSerializer.deserialize(HexFormat.of().parseHex(VERSION_1));
    assertThat(read).isEqualTo(ORDERS);
    assertThat(read.indexes()).isEmpty();
  }

  @Test
  void aTableWithoutIndexesIsStillWrittenAsVersionOne() {
    assertThat(HexFormat.of().formatHex(DescriptorSerializer.serialize(ORDERS)))
        .isEqualTo(VERSION_1);
  }

  @Test
  void indexesReadBackWithTheirExpressionsTextOrdersIncludesAndStates() {
    for (State state : State.values()) {
      TableDescriptor t =
          ORDERS.withIndexes(List.of(BY_NAME.withState(state), BY_UPPER_NAME_PRICE));
      byte[] bytes = DescriptorSerializer.serialize(t);
      assertThat(bytes[0]).isEqualTo((byte) 2);
      TableDescriptor read = DescriptorSerializer.deserialize(bytes);
      assertThat(read).isEqualTo(t);
      assertThat(read.index("ORDERS_BY_UPPER").orElseThrow().columns().get(0).sql())
          .isEqualTo("UPPER(NAME)");
      assertThat(read.indexes().get(0).state()).isEqualTo(state);
    }
  }

  @Test
  void anIndexExpressionsTextLongerThanWriteUtfAllowsReadsBack() {
    char[] chars = new char[40_000];
    Arrays.fill(chars, '€'); // three bytes each in UTF-8
    String sql = new String(chars);
    IndexDescriptor long_ =
        new IndexDescriptor(
            1,
            "I",
            List.of(new IndexColumn(new Expr.ColumnRef(1, DataType.VARCHAR), sql, SortOrder.ASC)),
            List.of(),
            State.ACTIVE);
    TableDescriptor t = ORDERS.withIndexes(List.of(long_));
    assertThat(DescriptorSerializer.deserialize(DescriptorSerializer.serialize(t))).isEqualTo(t);
  }

  @Test
  void anUnknownVersionIsRefusedNamingIt() {
    byte[] bytes = HexFormat.of().parseHex(VERSION_1);
    bytes[0] = 3;
    assertThatThrownBy(() -> DescriptorSerializer.deserialize(bytes))
        .isInstanceOfSatisfying(
            CairnException.class,
            x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.UNSUPPORTED_FORMAT_VERSION))
        .hasMessageContaining("expected version [1] or [2], found [3]");
  }

  @Test
  void aTruncatedOrExtendedEntryIsCorrupt() {
    byte[] bytes =
        DescriptorSerializer.serialize(ORDERS.withIndexes(List.of(BY_NAME, BY_UPPER_NAME_PRICE)));
    for (int length = 1; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> DescriptorSerializer.deserialize(cut))
          .as("cut at %d", length)
          .isInstanceOfSatisfying(
              CairnException.class,
              x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
          .hasMessageContaining("Corrupt");
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> DescriptorSerializer.deserialize(longer))
        .hasMessageContaining("[1] bytes after the descriptor");
  }

  @Test
  void anUnknownIndexStateIsCorrupt() {
    byte[] bytes = DescriptorSerializer.serialize(ORDERS.withIndexes(List.of(BY_NAME)));
    // the state byte follows the options, the index count, the id and the name
    int state = HexFormat.of().parseHex(VERSION_1).length + 4 + 4 + 2 + "ORDERS_BY_NAME".length();
    assertThat(bytes[state]).isEqualTo((byte) State.ACTIVE.id());
    bytes[state] = 9;
    assertThatThrownBy(() -> DescriptorSerializer.deserialize(bytes))
        .isInstanceOfSatisfying(
            CairnException.class,
            x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
        .hasMessageContaining("Unknown index state id [9]");
  }

  @Test
  void anIndexOnItsOwnReadsBack() {
    for (IndexDescriptor index : List.of(BY_NAME, BY_UPPER_NAME_PRICE)) {
      byte[] bytes = DescriptorSerializer.serializeIndex(index);
      assertThat(DescriptorSerializer.deserializeIndex(bytes)).isEqualTo(index);
      byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
      assertThatThrownBy(() -> DescriptorSerializer.deserializeIndex(longer))
          .isInstanceOfSatisfying(
              CairnException.class,
              x -> assertThat(x.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
          .hasMessageContaining("Corrupt index");
    }
  }
}
