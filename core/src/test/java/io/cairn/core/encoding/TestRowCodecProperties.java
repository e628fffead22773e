package io.cairn.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class TestRowCodecProperties {
  /** A layout, two rows sharing a random number of leading key values, and a prefix length. */
  record Case(RowLayout layout, Object[] a, Object[] b, int prefixLength) {}

  @Provide
  Arbitrary<Case> cases() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                Combinators.combine(
                        TestingRows.rows(layout),
                        TestingRows.rows(layout),
                        Arbitraries.integers().between(0, layout.keyColumns().size()),
                        Arbitraries.integers().between(0, layout.keyColumns().size()))
                    .as(
                        (a, b, shared, prefix) -> {
                          Object[] bb = b.clone();
                          for (int i = 0; i < shared; i++) {
                            int index = layout.keyColumns().get(i).columnIndex();
                            bb[index] = a[index];
                          }
                          return new Case(layout, a, bb, prefix);
                        }));
  }

  @Property(tries = 1500)
  void keyOrderIsSqlOrder(@ForAll("cases") Case c) {
    RowCodec codec = new RowCodec(c.layout());
    int expected = Integer.signum(TestingRows.compareKeys(c.layout(), c.a(), c.b()));
    int actual = Integer.signum(codec.encodeKey(c.a()).compareTo(codec.encodeKey(c.b())));
    assertThat(actual)
        .as("layout %s, keys %s vs %s", c.layout(), codec.encodeKey(c.a()), codec.encodeKey(c.b()))
        .isEqualTo(expected);
  }

  @Property(tries = 1000)
  void decodeInvertsEncode(@ForAll("cases") Case c) {
    RowCodec codec = new RowCodec(c.layout());
    Object[] row = c.a();
    Object[] decoded = codec.decode(codec.encodeKey(row), codec.encodeValue(row));
    assertThat(decoded).hasSameSizeAs(row);
    for (int i = 0; i < row.length; i++) {
      DataType type = c.layout().columnType(i);
      boolean fromKey = c.layout().isKeyColumn(i);
      assertThat(TestingRows.sameValue(type, row[i], decoded[i], fromKey))
          .as("column %s of type %s: expected %s, found %s", i, type, row[i], decoded[i])
          .isTrue();
    }
  }

  @Property(tries = 1000)
  void prefixSelectsExactlyRowsWithThoseValues(@ForAll("cases") Case c) {
    RowCodec codec = new RowCodec(c.layout());
    List<Object> prefixValues = new ArrayList<>();
    boolean bMatches = true;
    for (int i = 0; i < c.prefixLength(); i++) {
      RowLayout.KeyColumn key = c.layout().keyColumns().get(i);
      int index = key.columnIndex();
      prefixValues.add(c.a()[index]);
      DataType type = c.layout().columnType(index);
      bMatches &= TestingRows.compareValues(type, c.a()[index], c.b()[index]) == 0;
    }
    Bytes prefix = codec.encodeKeyPrefix(prefixValues);
    Bytes keyA = codec.encodeKey(c.a());
    Bytes keyB = codec.encodeKey(c.b());
    assertThat(keyA.startsWith(prefix)).isTrue();
    KeyRange range = KeyRange.prefix(prefix);
    assertThat(range.contains(keyA)).isTrue();
    assertThat(range.contains(keyB)).as("prefix %s, key %s", prefix, keyB).isEqualTo(bMatches);
  }

  @Property(tries = 500)
  void hiddenRowIdLayoutRoundTrips(@ForAll("cases") Case c) {
    List<RowLayout.ColumnLayout> columns = c.layout().columns();
    RowLayout hidden = new RowLayout(columns, List.of(), true, 7);
    RowCodec codec = new RowCodec(hidden);
    Object[] row = c.a();
    Object[] decoded = codec.decode(RowCodec.encodeRowId(42), codec.encodeValue(row));
    for (int i = 0; i < row.length; i++) {
      assertThat(TestingRows.sameValue(hidden.columnType(i), row[i], decoded[i], false))
          .as("column %s: expected %s, found %s", i, row[i], decoded[i])
          .isTrue();
    }
    assertThat(RowCodec.schemaVersion(codec.encodeValue(row))).isEqualTo(7);
  }

  @Property
  void rowIdsKeepTheirOrder(@ForAll long a, @ForAll long b) {
    int expected = Integer.signum(Long.compare(a, b));
    assertThat(Integer.signum(RowCodec.encodeRowId(a).compareTo(RowCodec.encodeRowId(b))))
        .isEqualTo(expected);
    assertThat(RowCodec.decodeRowId(RowCodec.encodeRowId(a))).isEqualTo(a);
  }

  @Property(tries = 1000)
  void singleValueOrderPerType(@ForAll("typedPairs") Object[] pair, @ForAll SortOrder order) {
    DataType type = (DataType) pair[0];
    ByteBuilder a = new ByteBuilder();
    ByteBuilder b = new ByteBuilder();
    KeyEncoding.encode(a, pair[1], type, order);
    KeyEncoding.encode(b, pair[2], type, order);
    int expected = Integer.signum(TestingRows.compareValues(type, pair[1], pair[2]));
    if (order == SortOrder.DESC) {
      expected = -expected;
    }
    assertThat(Integer.signum(a.toBytes().compareTo(b.toBytes())))
        .as("%s %s: %s vs %s", type, order, pair[1], pair[2])
        .isEqualTo(expected);
    Object decoded = KeyEncoding.decode(new ByteReader(a.toBytes().peekArray()), type, order);
    assertThat(TestingRows.sameValue(type, pair[1], decoded, true)).isTrue();
  }

  @Provide
  Arbitrary<Object[]> typedPairs() {
    return Arbitraries.of(TestingRows.KEY_TYPES)
        .flatMap(
            type ->
                Combinators.combine(TestingRows.values(type), TestingRows.values(type))
                    .as((x, y) -> new Object[] {type, x, y}));
  }

  /** Encode with one layout, decode with a later one that dropped a column and added another. */
  @Property(tries = 1000)
  void schemaEvolutionNeedsNoRewrite(@ForAll("cases") Case c) {
    RowLayout old = c.layout();
    Object[] row = c.a();
    Bytes value = new RowCodec(old).encodeValue(row);
    Bytes key = new RowCodec(old).encodeKey(row);

    // drop the last non-key column (if any), add a new one with a fresh id
    List<RowLayout.ColumnLayout> columns = new ArrayList<>(old.columns());
    int dropped = -1;
    for (int i = columns.size() - 1; i >= 0; i--) {
      if (!old.isKeyColumn(i)) {
        dropped = i;
        break;
      }
    }
    List<Integer> survivors = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      if (i != dropped) {
        survivors.add(i);
      }
    }
    List<RowLayout.ColumnLayout> newColumns = new ArrayList<>();
    for (int i : survivors) {
      newColumns.add(columns.get(i));
    }
    newColumns.add(new RowLayout.ColumnLayout(1000, DataType.VARCHAR));
    List<RowLayout.KeyColumn> newKeys = new ArrayList<>();
    for (RowLayout.KeyColumn k : old.keyColumns()) {
      newKeys.add(new RowLayout.KeyColumn(survivors.indexOf(k.columnIndex()), k.order()));
    }
    RowLayout evolved = new RowLayout(newColumns, newKeys, false, old.schemaVersion() + 1);

    Object[] decoded = new RowCodec(evolved).decode(key, value);
    assertThat(decoded).hasSize(newColumns.size());
    for (int j = 0; j < survivors.size(); j++) {
      int i = survivors.get(j);
      assertThat(TestingRows.sameValue(old.columnType(i), row[i], decoded[j], old.isKeyColumn(i)))
          .as("column %s: expected %s, found %s", i, row[i], decoded[j])
          .isTrue();
    }
    assertThat(decoded[newColumns.size() - 1]).isNull();
  }
}
