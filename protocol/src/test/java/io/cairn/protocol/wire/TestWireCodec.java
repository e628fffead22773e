package io.cairn.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.TestingRows;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.expr.TestRowFilterProperties;
import io.cairn.core.type.DataType;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import io.cairn.kv.TableStatistics;
import io.cairn.protocol.ScanSpec;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * What one side of the wire encodes, the other decodes to an equal object: values of every type,
 * row pages, scan programs with random filters, scan requests, mutations, regions and errors; and
 * broken messages are PROTOCOL_ERROR, never a bare runtime exception.
 */
class TestWireCodec {
  record RowsCase(RowLayout layout, List<Object[]> rows) {}

  @Provide
  Arbitrary<RowsCase> rowCases() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                TestingRows.rows(layout)
                    .list()
                    .ofMaxSize(20)
                    .map(rows -> new RowsCase(layout, rows)));
  }

  @Property(tries = 500)
  void rowPagesRoundTrip(@ForAll("rowCases") RowsCase c) {
    RowPageWriter writer = new RowPageWriter(c.layout().columnCount());
    for (Object[] row : c.rows()) {
      writer.add(row);
    }
    assertThat(writer.rowCount()).isEqualTo(c.rows().size());
    long size = writer.sizeBytes();
    ByteString page = writer.finish();
    assertThat(page.size()).isEqualTo(size);
    Object[][] decoded = RowPageReader.read(page, c.rows().size(), c.layout().columnCount());
    assertThat(decoded.length).isEqualTo(c.rows().size());
    for (int r = 0; r < decoded.length; r++) {
      Object[] expected = c.rows().get(r);
      for (int i = 0; i < expected.length; i++) {
        // exactly the class and value, including BigDecimal's scale and -0.0 / NaN
        assertThat(decoded[r][i]).isEqualTo(expected[i]);
        if (expected[i] != null) {
          assertThat(decoded[r][i]).hasSameClassAs(expected[i]);
        }
      }
    }
    assertThat(writer.rowCount()).isZero();
  }

  @Example
  void valuesAtTheirEdgesRoundTrip() {
    Object[] values = {
      null,
      true,
      false,
      Byte.MIN_VALUE,
      Short.MAX_VALUE,
      Integer.MIN_VALUE,
      Long.MIN_VALUE,
      Long.MAX_VALUE,
      Float.NaN,
      -0.0f,
      Double.NEGATIVE_INFINITY,
      -0.0,
      new BigDecimal("-12.50"),
      new BigDecimal("1E+18"),
      new BigDecimal("123456789012345678901234567890.123456789"),
      new BigDecimal(Long.MIN_VALUE).subtract(BigDecimal.ONE),
      "",
      "\u4e2d\ud83d\ude00\0",
      new byte[0],
      new byte[] {0, -1, 127},
      LocalDate.MIN,
      LocalDate.MAX,
      LocalTime.MAX,
      LocalTime.MIDNIGHT,
      LocalDateTime.MIN,
      LocalDateTime.MAX,
      LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1)
    };
    for (Object value : values) {
      Object decoded = WireValues.decode(WireValues.encode(value));
      if (value instanceof byte[] bytes) {
        assertThat((byte[]) decoded).isEqualTo(bytes);
      } else {
        assertThat(decoded).isEqualTo(value);
      }
    }
  }

  @Example
  void timestampsKeepTheirNanosecondsOverTheWire() {
    LocalDateTime nanos = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_789);
    assertThat(WireValues.decode(WireValues.encode(nanos))).isEqualTo(nanos);
    ByteString page = pageOf(new Object[] {1, nanos});
    assertThat(RowPageReader.read(page, 1, 2)[0]).containsExactly(1, nanos);
  }

  @Example
  void brokenValuesAreProtocolErrors() {
    assertProtocolError(() -> WireValues.decode(ByteString.copyFrom(new byte[] {99})), "tag");
    assertProtocolError(() -> WireValues.decode(ByteString.EMPTY), "cut short");
    assertProtocolError(
        () -> WireValues.decode(ByteString.copyFrom(new byte[] {(byte) WireValues.STRING, 5, 'a'})),
        "cut short");
    assertProtocolError(
        () -> WireValues.decode(WireValues.encode(1L).concat(ByteString.copyFrom(new byte[1]))),
        "after a value");
    // a TINYINT out of its range
    assertProtocolError(
        () -> WireValues.decode(ByteString.copyFrom(new byte[] {(byte) WireValues.BYTE, -2, 3})),
        "TINYINT");
    ByteString page = pageOf(new Object[] {1, "a"}, new Object[] {2, "b"});
    assertProtocolError(() -> RowPageReader.read(page, 3, 2), "cut short");
    assertProtocolError(() -> RowPageReader.read(page, 1, 2), "after the last row");
    assertProtocolError(() -> RowPageReader.read(page, -1, 2), "rows");
  }

  private static ByteString pageOf(Object[]... rows) {
    RowPageWriter writer = new RowPageWriter(rows[0].length);
    for (Object[] row : rows) {
      writer.add(row);
    }
    return writer.finish();
  }

  record ProgramCase(RowLayout layout, List<Object[]> rows, long seed) {}

  @Provide
  Arbitrary<ProgramCase> programCases() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                Combinators.combine(
                        TestingRows.rows(layout).list().ofMinSize(1).ofMaxSize(3),
                        Arbitraries.longs())
                    .as((rows, seed) -> new ProgramCase(layout, rows, seed)));
  }

  @Property(tries = 300)
  void scanRequestsRoundTrip(@ForAll("programCases") ProgramCase c)
      throws InvalidProtocolBufferException {
    TestRowFilterProperties.Filters filters =
        new TestRowFilterProperties.Filters(new Random(c.seed()), c.layout(), c.rows());
    Expr filter = filters.filter(3);
    EvalContext context = filters.context();
    List<Expr> projection = new ArrayList<>();
    for (int i = 0; i < c.layout().columnCount(); i++) {
      projection.add(new Expr.ColumnRef(i, c.layout().columnType(i)));
    }
    projection.add(filter);
    ScanProgram program =
        new ScanProgram(
            c.layout(),
            Optional.of(filter),
            projection,
            c.seed() % 2 == 0 ? ScanProgram.NO_LIMIT : 10,
            List.of());
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.ALL, KeyRange.point(Bytes.wrap(new byte[] {1, 2}))),
            program,
            context,
            c.seed() % 3 == 0,
            c.seed() % 4 == 0 ? ScanRequest.LATEST : Math.floorMod(c.seed(), Long.MAX_VALUE));
    if (c.seed() % 5 != 0) {
      // a local index read (issue 17): its id, mode and row range travel with the ranges
      IndexRead read = new IndexRead((int) Math.floorMod(c.seed(), 1000), c.seed() % 2 == 0);
      if (c.seed() % 3 != 0) {
        read = read.withRows(new KeyRange(Bytes.wrap(new byte[] {1}), Bytes.EMPTY));
      }
      read = read.withGrouped(c.seed() % 7 < 3);
      request = request.withIndex(read);
    }
    ScanSpec spec = ScanSpec.parseFrom(WireMessages.toProto("T7", request).toByteArray());
    assertThat(spec.getTable()).isEqualTo("T7");
    ScanRequest decoded = WireMessages.fromProto(spec);
    // equal again on the wire: every type, operator, literal (its class, a BigDecimal's scale,
    // NaN's bits), parameter and range re-encodes to the same message
    assertThat(WireMessages.toProto("T7", decoded)).isEqualTo(spec);
    assertThat(decoded.program().layout()).isEqualTo(request.program().layout());
    assertThat(decoded.cacheBlocks()).isEqualTo(request.cacheBlocks());
    assertThat(decoded.readPoint()).isEqualTo(request.readPoint());
    assertThat(decoded.index()).isEqualTo(request.index());
    assertThat(decoded.ranges()).isEqualTo(request.ranges());
    assertProtocolError(
        () -> WireMessages.fromProto(spec.toBuilder().setReadPoint(-1).build()), "read point");
  }

  @Provide
  Arbitrary<List<Mutation>> mutations() {
    Arbitrary<Bytes> keys =
        Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(8).map(Bytes::wrap);
    Arbitrary<Bytes> values = Arbitraries.bytes().array(byte[].class).ofMaxSize(8).map(Bytes::wrap);
    Arbitrary<Long> readPoints =
        Arbitraries.oneOf(
            Arbitraries.longs().between(1, Long.MAX_VALUE), Arbitraries.of(1L, Long.MAX_VALUE));
    Arbitrary<Mutation.Condition> putConditions =
        Arbitraries.oneOf(
            Arbitraries.of(Mutation.Condition.NONE, Mutation.Condition.MUST_NOT_EXIST),
            readPoints.map(Mutation.Condition::unchangedSince));
    Arbitrary<Mutation.Condition> deleteConditions =
        Arbitraries.oneOf(
            Arbitraries.just(Mutation.Condition.NONE),
            readPoints.map(Mutation.Condition::unchangedSince));
    return Arbitraries.<Mutation>oneOf(
            Combinators.combine(keys, values, putConditions).as(Mutation.Put::new),
            Combinators.combine(keys, deleteConditions).as(Mutation.Delete::new))
        .list()
        .ofMaxSize(6);
  }

  @Property(tries = 300)
  void mutationsWithTheirConditionsRoundTrip(
      @ForAll("mutations") List<Mutation> mutations, @ForAll int batchIndex)
      throws InvalidProtocolBufferException {
    io.cairn.protocol.TableBatch batch =
        io.cairn.protocol.TableBatch.parseFrom(WireMessages.toProto("T3", mutations).toByteArray());
    assertThat(WireMessages.fromProto(batch.getMutationsList())).isEqualTo(mutations);
    // each failing condition comes back to the client as the same ConditionFailedException
    for (int i = 0; i < mutations.size(); i++) {
      Mutation m = mutations.get(i);
      if (m.condition().kind() == Mutation.Condition.Kind.NONE) {
        continue;
      }
      ConditionFailedException failed =
          new ConditionFailedException(batchIndex, i, m.key(), m.condition().kind());
      CairnException back =
          WireMessages.fromProto(
              io.cairn.protocol.Error.parseFrom(WireMessages.toProto(failed).toByteArray()));
      assertThat(back).isInstanceOf(ConditionFailedException.class).hasMessage(failed.getMessage());
      ConditionFailedException c = (ConditionFailedException) back;
      assertThat(c.errorCode()).isEqualTo(failed.errorCode());
      assertThat(c.kind()).isEqualTo(m.condition().kind());
      assertThat(c.isConflict()).isEqualTo(failed.isConflict());
      assertThat(Arrays.asList(c.batchIndex(), c.mutationIndex())).containsExactly(batchIndex, i);
      assertThat(c.key()).isEqualTo(m.key());
    }
  }

  /**
   * The bytes of version 1's messages before conditions had kinds and scans had read points: an old
   * peer's messages decode as they did, and what an old peer can read is encoded as it was.
   */
  @Example
  void messagesOfPeersBeforeSnapshotsKeepTheirMeaningAndBytes()
      throws InvalidProtocolBufferException {
    Bytes key = Bytes.wrap(new byte[] {1, 2});
    // key (1), value (3), must_not_exist (4): an INSERT as every client has sent it
    byte[] insert = {0x0a, 0x02, 1, 2, 0x1a, 0x01, 9, 0x20, 0x01};
    Mutation.Put put =
        new Mutation.Put(key, Bytes.wrap(new byte[] {9}), Mutation.Condition.MUST_NOT_EXIST);
    assertThat(WireMessages.toProto(put).toByteArray()).isEqualTo(insert);
    assertThat(WireMessages.fromProto(io.cairn.protocol.Mutation.parseFrom(insert))).isEqualTo(put);
    // key (1), delete (2)
    byte[] delete = {0x0a, 0x02, 1, 2, 0x10, 0x01};
    assertThat(WireMessages.toProto(new Mutation.Delete(key)).toByteArray()).isEqualTo(delete);
    // a put of an UNCHANGED_SINCE condition adds only field 5 (varint 300)
    Mutation.Put conditional =
        new Mutation.Put(key, Bytes.wrap(new byte[] {9}), Mutation.Condition.unchangedSince(300));
    assertThat(WireMessages.toProto(conditional).toByteArray())
        .isEqualTo(new byte[] {0x0a, 0x02, 1, 2, 0x1a, 0x01, 9, 0x28, (byte) 0xac, 0x02});
    // an old server's condition_failed (7) without a kind is a failed MUST_NOT_EXIST
    io.cairn.protocol.Error old =
        io.cairn.protocol.Error.newBuilder()
            .setCode(ErrorCode.DUPLICATE_KEY.code())
            .setSqlState(ErrorCode.DUPLICATE_KEY.sqlState())
            .setMessage("A row with key [0102] already exists")
            .setBatchIndex(1)
            .setMutationIndex(3)
            .setKey(ByteString.copyFrom(new byte[] {1, 2}))
            .setConditionFailed(true)
            .build();
    assertThat(WireMessages.fromProto(old))
        .isInstanceOfSatisfying(
            ConditionFailedException.class,
            c -> {
              assertThat(c.kind()).isEqualTo(Mutation.Condition.Kind.MUST_NOT_EXIST);
              assertThat(c.errorCode()).isEqualTo(ErrorCode.DUPLICATE_KEY);
              assertThat(c.mutationIndex()).isEqualTo(3);
            });
  }

  @Example
  void aggregateProgramsRoundTrip() {
    RowLayout layout = TestingRows.layouts().sample();
    List<Expr> projection = List.of(new Expr.ColumnRef(0, layout.columnType(0)));
    ScanProgram program =
        new ScanProgram(
            layout,
            Optional.empty(),
            projection,
            ScanProgram.NO_LIMIT,
            List.of(
                new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT),
                new AggregateCall(AggregateKind.MAX, List.of(0), false, layout.columnType(0))));
    assertThat(WirePrograms.fromProto(WirePrograms.toProto(program))).isEqualTo(program);
    // grouped, with a HAVING hint over the group row (key, COUNT(*), MAX)
    ScanProgram having =
        new ScanProgram(
            layout,
            Optional.empty(),
            projection,
            ScanProgram.NO_LIMIT,
            0,
            List.of(0),
            program.aggregates(),
            List.of(),
            Optional.empty(),
            Optional.of(
                new Expr.Call(
                    Op.GREATER_THAN,
                    List.of(
                        new Expr.ColumnRef(1, DataType.BIGINT),
                        new Expr.Literal(2L, DataType.BIGINT)),
                    DataType.BOOLEAN)));
    assertThat(WirePrograms.fromProto(WirePrograms.toProto(having))).isEqualTo(having);
    assertThat(WirePrograms.toProto(having).hasHaving()).isTrue();
  }

  /**
   * Random sorting, paging and grouping programs: each round-trips to an equal program and the same
   * message.
   */
  @Property(tries = 300)
  void orderedAndGroupedProgramsRoundTrip(@ForAll("programCases") ProgramCase c) {
    Random random = new Random(c.seed());
    RowLayout layout = c.layout();
    List<Expr> projection = new ArrayList<>();
    for (int i = 0; i < layout.columnCount(); i++) {
      projection.add(new Expr.ColumnRef(i, layout.columnType(i)));
    }
    ScanProgram program;
    if (random.nextBoolean()) {
      List<SortKey> order = new ArrayList<>();
      int keys = random.nextInt(projection.size() + 1);
      for (int i = 0; i < keys; i++) {
        order.add(
            new SortKey(
                random.nextInt(projection.size()), random.nextBoolean(), random.nextBoolean()));
      }
      long limit = random.nextBoolean() ? ScanProgram.NO_LIMIT : random.nextInt(1000);
      long offset = random.nextBoolean() ? 0 : random.nextLong() & Long.MAX_VALUE;
      program =
          new ScanProgram(
              layout, Optional.empty(), projection, limit, offset, List.of(), List.of(), order);
    } else {
      List<Integer> groupBy = new ArrayList<>();
      int keys = random.nextInt(projection.size() + 1);
      for (int i = 0; i < keys; i++) {
        groupBy.add(random.nextInt(projection.size()));
      }
      int column = random.nextInt(projection.size());
      List<AggregateCall> calls =
          List.of(
              new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT),
              new AggregateCall(
                  random.nextBoolean() ? AggregateKind.MIN : AggregateKind.MAX,
                  List.of(column),
                  false,
                  layout.columnType(column)));
      program =
          new ScanProgram(
              layout,
              Optional.empty(),
              projection,
              ScanProgram.NO_LIMIT,
              0,
              groupBy,
              calls,
              List.of());
    }
    io.cairn.protocol.ScanProgram message = WirePrograms.toProto(program);
    ScanProgram decoded = WirePrograms.fromProto(message);
    assertThat(decoded).isEqualTo(program);
    assertThat(WirePrograms.toProto(decoded)).isEqualTo(message);
  }

  @Example
  void brokenOrderedAndGroupedProgramsAreProtocolErrors() {
    RowLayout layout = TestingRows.layouts().sample();
    io.cairn.protocol.ScanProgram good =
        WirePrograms.toProto(
            new ScanProgram(
                layout,
                Optional.empty(),
                List.of(new Expr.ColumnRef(0, layout.columnType(0))),
                ScanProgram.NO_LIMIT));
    io.cairn.protocol.SortKey key = io.cairn.protocol.SortKey.newBuilder().setColumn(0).build();
    assertThat(WirePrograms.fromProto(good.toBuilder().addOrderBy(key).setOffset(3).build()))
        .satisfies(
            p -> {
              assertThat(p.orderBy()).containsExactly(new SortKey(0, false, false));
              assertThat(p.offset()).isEqualTo(3);
            });
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().setOffset(-1).build()), "offset");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder().addOrderBy(key.toBuilder().setColumn(1)).build()),
        "Sort key");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder().addOrderBy(key.toBuilder().setColumn(-2)).build()),
        "column must not be negative");
    // grouping without aggregates, a group key out of range, an aggregate with an order
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().addGroupBy(0).build()), "groups only");
    io.cairn.protocol.AggregateCall count =
        WirePrograms.toProto(
            new AggregateCall(AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT));
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().addAggregates(count).addGroupBy(4).build()),
        "Group key");
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().addAggregates(count).addOrderBy(key).build()),
        "no limit, offset or order");
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().addAggregates(count).setOffset(1).build()),
        "no limit, offset or order");
  }

  @Example
  void brokenProgramsAreProtocolErrors() {
    RowLayout layout = TestingRows.layouts().sample();
    io.cairn.protocol.ScanProgram good =
        WirePrograms.toProto(
            new ScanProgram(
                layout,
                Optional.empty(),
                List.of(new Expr.ColumnRef(0, layout.columnType(0))),
                ScanProgram.NO_LIMIT));
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().clearLayout().build()), "row layout");
    io.cairn.protocol.Expr column = good.getProjection(0);
    // the projection may read the row key pseudo-column (index columnCount), nothing beyond it
    io.cairn.protocol.ScanProgram rowKey =
        good.toBuilder()
            .setProjection(
                0,
                WirePrograms.toProto(
                    new Expr.ColumnRef(
                        layout.columnCount(), DataType.VARBINARY.withNullable(false))))
            .build();
    assertThat(WirePrograms.fromProto(rowKey).projection())
        .containsExactly(
            new Expr.ColumnRef(layout.columnCount(), DataType.VARBINARY.withNullable(false)));
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder()
                    .setProjection(0, column.toBuilder().setColumn(layout.columnCount() + 1))
                    .build()),
        "column reference");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder()
                    .setFilter(
                        WirePrograms.toProto(
                            new Expr.ColumnRef(layout.columnCount(), DataType.BOOLEAN)))
                    .build()),
        "column reference");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder()
                    .setProjection(
                        0,
                        column.toBuilder().setCall(io.cairn.protocol.Call.newBuilder().setOp(9999)))
                    .build()),
        "9999");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder()
                    .setProjection(
                        0, column.toBuilder().setType(column.getType().toBuilder().setName(77)))
                    .build()),
        "77");
    assertProtocolError(
        () -> WirePrograms.fromProto(good.toBuilder().setLimit(-5).build()), "limit");
    assertProtocolError(
        () ->
            WirePrograms.fromProto(
                good.toBuilder()
                    .addAggregates(
                        io.cairn.protocol.AggregateCall.newBuilder()
                            .setKind(AggregateKind.SUM.id())
                            .setResultType(WirePrograms.toProto(DataType.BIGINT)))
                    .build()),
        "SUM");
    // deep expressions: TestWireExpressionNodes
  }

  @Example
  void mutationsDurabilitiesRegionsAndErrorsRoundTrip() {
    Bytes key = Bytes.wrap(new byte[] {1, 2, 3});
    List<Mutation> mutations =
        List.of(
            new Mutation.Put(key, Bytes.wrap(new byte[] {9})),
            new Mutation.Put(key, Bytes.EMPTY, Mutation.Condition.MUST_NOT_EXIST),
            new Mutation.Delete(key));
    io.cairn.protocol.TableBatch batch = WireMessages.toProto("T1", mutations);
    assertThat(WireMessages.fromProto(batch.getMutationsList())).isEqualTo(mutations);
    for (Durability d : Durability.values()) {
      assertThat(WireMessages.fromProto(WireMessages.toProto(d))).isEqualTo(d);
    }
    assertThat(WireMessages.fromProto(WireMessages.toProto((Durability) null))).isNull();
    RegionInfo region = new RegionInfo(7, new KeyRange(Bytes.EMPTY, key), 1234, 56, 3);
    assertThat(WireMessages.fromProto(WireMessages.toProto(region))).isEqualTo(region);

    CairnException notFound =
        new CairnException(ErrorCode.TABLE_NOT_FOUND, "Table [T] does not exist");
    CairnException back = WireMessages.fromProto(WireMessages.toProto(notFound));
    assertThat(back.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND);
    assertThat(back).hasMessage("Table [T] does not exist");

    ConditionFailedException failed = new ConditionFailedException(1, 2, key);
    CairnException condition = WireMessages.fromProto(WireMessages.toProto(failed));
    assertThat(condition)
        .isInstanceOf(ConditionFailedException.class)
        .hasMessage(failed.getMessage());
    ConditionFailedException c = (ConditionFailedException) condition;
    assertThat(Arrays.asList(c.batchIndex(), c.mutationIndex())).containsExactly(1, 2);
    assertThat(c.key()).isEqualTo(key);

    CairnException internal =
        WireMessages.fromProto(WireMessages.toProto(new IllegalStateException("boom")));
    assertThat(internal.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR);
    assertThat(internal).hasMessageContaining("boom");
  }

  @Example
  void statisticsRoundTrip() {
    Bytes a = Bytes.wrap(new byte[] {1, 2});
    Bytes b = Bytes.wrap(new byte[] {(byte) 0xff});
    TableStatistics statistics =
        new TableStatistics(
            32L << 20,
            List.of(
                new TableStatistics.Chunk(1, Bytes.EMPTY, a, 10, 200),
                new TableStatistics.Chunk(1, a, b, 0, 0),
                new TableStatistics.Chunk(4, b, Bytes.EMPTY, -1, 4096)),
            1_700_000_000_000L);
    assertThat(WireMessages.fromProto(WireMessages.toProto(statistics))).isEqualTo(statistics);
    TableStatistics withColumns =
        new TableStatistics(
            statistics.guidePostWidth(),
            statistics.chunks(),
            statistics.collectedAtMillis(),
            List.of(
                new io.cairn.kv.ColumnStatistics(0, 10, 10, 0, 1L, 10L),
                new io.cairn.kv.ColumnStatistics(
                    1,
                    10,
                    3,
                    2,
                    new java.math.BigDecimal("0.50"),
                    new java.math.BigDecimal("9.25")),
                new io.cairn.kv.ColumnStatistics(
                    2,
                    10,
                    2,
                    0,
                    java.time.LocalDate.of(1994, 1, 1),
                    java.time.LocalDate.of(1998, 8, 2)),
                new io.cairn.kv.ColumnStatistics(3, 10, 0, 10, null, null),
                new io.cairn.kv.ColumnStatistics(4, 10, -1, 0, "ASIA", "EUROPE")));
    assertThat(WireMessages.fromProto(WireMessages.toProto(withColumns))).isEqualTo(withColumns);
    TableStatistics ofRegions =
        TableStatistics.ofRegions(
            List.of(new RegionInfo(3, new KeyRange(Bytes.EMPTY, Bytes.EMPTY), 0, 0, 0)));
    assertThat(WireMessages.fromProto(WireMessages.toProto(ofRegions))).isEqualTo(ofRegions);
    assertProtocolError(
        () -> WireMessages.fromProto(io.cairn.protocol.TableStatistics.getDefaultInstance()),
        "found none");
  }

  @Example
  void brokenMutationsAreProtocolErrors() {
    assertProtocolError(
        () -> WireMessages.fromProto(io.cairn.protocol.Mutation.newBuilder().build()), "empty key");
    assertProtocolError(
        () ->
            WireMessages.fromProto(
                io.cairn.protocol.Mutation.newBuilder()
                    .setKey(ByteString.copyFrom(new byte[] {1}))
                    .setDelete(true)
                    .setMustNotExist(true)
                    .build()),
        "delete");
    assertProtocolError(
        () ->
            WireMessages.fromProto(
                io.cairn.protocol.Mutation.newBuilder()
                    .setKey(ByteString.copyFrom(new byte[] {1}))
                    .setMustNotExist(true)
                    .setUnchangedSince(7)
                    .build()),
        "two conditions");
    assertProtocolError(
        () ->
            WireMessages.fromProto(
                io.cairn.protocol.Mutation.newBuilder()
                    .setKey(ByteString.copyFrom(new byte[] {1}))
                    .setUnchangedSince(-1)
                    .build()),
        "18446744073709551615");
    assertProtocolError(() -> WireMessages.fromProto(ScanSpec.getDefaultInstance()), "program");
    ScanSpec valid =
        WireMessages.toProto(
            "T",
            new ScanRequest(
                List.of(KeyRange.ALL),
                new ScanProgram(
                    TestingRows.layouts().sample(),
                    Optional.empty(),
                    List.of(),
                    ScanProgram.NO_LIMIT,
                    List.of()),
                new EvalContext(new Object[0], LocalDateTime.of(2026, 1, 1, 0, 0)),
                true));
    assertThat(WireMessages.fromProto(valid).index()).isNull();
    assertProtocolError(
        () ->
            WireMessages.fromProto(
                valid.toBuilder()
                    .setIndex(io.cairn.protocol.IndexRead.newBuilder().setIndexId(-3))
                    .build()),
        "[-3]");
  }

  private static void assertProtocolError(Runnable action, String messagePart) {
    assertThatThrownBy(action::run)
        .isInstanceOf(CairnException.class)
        .hasMessageContaining(messagePart)
        .satisfies(
            e -> assertThat(((CairnException) e).errorCode()).isEqualTo(ErrorCode.PROTOCOL_ERROR));
  }
}
