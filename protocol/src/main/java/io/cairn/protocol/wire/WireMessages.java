package io.cairn.protocol.wire;

import com.google.protobuf.ByteString;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.kv.ColumnStatistics;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.IndexRead;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.protocol.Error;
import io.cairn.protocol.ScanSpec;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Requests, writes, regions and errors on the wire: {@link ScanRequest} and {@link ScanSpec},
 * {@link Mutation}, {@link Durability}, {@link RegionInfo} and {@link CairnException} to and from
 * their protocol messages.
 */
public final class WireMessages {
  private WireMessages() {}

  // --- scans ---------------------------------------------------------------------------------

  /** The scan of KV table {@code table}. */
  public static ScanSpec toProto(String table, ScanRequest request) {
    ScanSpec.Builder b =
        ScanSpec.newBuilder()
            .setTable(table)
            .setProgram(WirePrograms.toProto(request.program()))
            .setNoCache(!request.cacheBlocks())
            .setReadPoint(request.readPoint());
    for (KeyRange range : request.ranges()) {
      b.addRanges(toProto(range));
    }
    if (request.index() != null) {
      io.cairn.protocol.IndexRead.Builder index =
          io.cairn.protocol.IndexRead.newBuilder()
              .setIndexId(request.index().indexId())
              .setLookup(request.index().lookup())
              .setGrouped(request.index().grouped());
      if (!request.index().rows().isAll()) {
        index.setRows(toProto(request.index().rows()));
      }
      b.setIndex(index);
    }
    EvalContext context = request.context();
    for (int i = 0; i < context.parameterCount(); i++) {
      b.addParameters(WireValues.encode(context.parameter(i)));
    }
    LocalDateTime time = context.statementTime();
    b.setStatementTimeEpochSecond(time.toEpochSecond(ZoneOffset.UTC));
    b.setStatementTimeNano(time.getNano());
    return b.build();
  }

  /**
   * The scan request of a message (its table is {@link ScanSpec#getTable()}).
   *
   * @throws CairnException PROTOCOL_ERROR when the message is not a valid scan
   */
  public static ScanRequest fromProto(ScanSpec spec) {
    if (!spec.hasProgram()) {
      throw WireValues.malformed("a scan without a program");
    }
    long readPoint = readPoint(spec.getReadPoint(), "a scan");
    List<KeyRange> ranges = new ArrayList<>(spec.getRangesCount());
    for (io.cairn.protocol.KeyRange range : spec.getRangesList()) {
      ranges.add(fromProto(range));
    }
    Object[] parameters = new Object[spec.getParametersCount()];
    for (int i = 0; i < parameters.length; i++) {
      parameters[i] = WireValues.decode(spec.getParameters(i));
    }
    LocalDateTime time =
        WirePrograms.rethrowAsProtocolError(
            () ->
                LocalDateTime.ofEpochSecond(
                    spec.getStatementTimeEpochSecond(),
                    spec.getStatementTimeNano(),
                    ZoneOffset.UTC));
    IndexRead index = null;
    if (spec.hasIndex()) {
      int indexId = spec.getIndex().getIndexId();
      if (indexId < 0) {
        throw WireValues.malformed("a scan of an index with id [" + indexId + "]: expected >= 0");
      }
      KeyRange rows =
          spec.getIndex().hasRows() ? fromProto(spec.getIndex().getRows()) : KeyRange.ALL;
      index =
          new IndexRead(indexId, spec.getIndex().getLookup(), rows, spec.getIndex().getGrouped());
    }
    return new ScanRequest(
        ranges,
        WirePrograms.fromProto(spec.getProgram()),
        new EvalContext(parameters, time),
        !spec.getNoCache(),
        readPoint,
        null,
        index);
  }

  /** A read point from the wire (uint64): at most Long.MAX_VALUE. */
  private static long readPoint(long value, String what) {
    if (value < 0) {
      throw WireValues.malformed(
          what + " with a read point beyond 2^63 - 1 [" + Long.toUnsignedString(value) + "]");
    }
    return value;
  }

  public static io.cairn.protocol.KeyRange toProto(KeyRange range) {
    return io.cairn.protocol.KeyRange.newBuilder()
        .setStart(bytes(range.start()))
        .setStop(bytes(range.stop()))
        .build();
  }

  public static KeyRange fromProto(io.cairn.protocol.KeyRange range) {
    return new KeyRange(bytes(range.getStart()), bytes(range.getStop()));
  }

  // --- writes --------------------------------------------------------------------------------

  /**
   * A mutation's message: MUST_NOT_EXIST travels as {@code must_not_exist} (as before conditions
   * had kinds), UNCHANGED_SINCE as its read point in {@code unchanged_since}.
   */
  public static io.cairn.protocol.Mutation toProto(Mutation mutation) {
    io.cairn.protocol.Mutation.Builder b =
        io.cairn.protocol.Mutation.newBuilder().setKey(bytes(mutation.key()));
    if (mutation instanceof Mutation.Put put) {
      b.setValue(bytes(put.value()));
    } else {
      b.setDelete(true);
    }
    Mutation.Condition condition = mutation.condition();
    switch (condition.kind()) {
      case NONE -> {}
      case MUST_NOT_EXIST -> b.setMustNotExist(true);
      case UNCHANGED_SINCE -> b.setUnchangedSince(condition.readPoint());
      case VALUE_IS ->
          // the server's stores have read points: the driver never sends it one
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED,
              "A VALUE_IS condition is for stores without read points; the server has them");
    }
    return b.build();
  }

  /**
   * @throws CairnException PROTOCOL_ERROR for an empty key, a delete with a value or
   *     must_not_exist, or a mutation with two conditions
   */
  public static Mutation fromProto(io.cairn.protocol.Mutation message) {
    if (message.getKey().isEmpty()) {
      throw WireValues.malformed("a mutation with an empty key");
    }
    Bytes key = bytes(message.getKey());
    long unchangedSince = readPoint(message.getUnchangedSince(), "a mutation");
    if (message.getMustNotExist() && unchangedSince != 0) {
      throw WireValues.malformed(
          "a mutation with two conditions (must_not_exist and unchanged_since ["
              + unchangedSince
              + "])");
    }
    Mutation.Condition condition =
        unchangedSince != 0
            ? Mutation.Condition.unchangedSince(unchangedSince)
            : message.getMustNotExist()
                ? Mutation.Condition.MUST_NOT_EXIST
                : Mutation.Condition.NONE;
    if (message.getDelete()) {
      if (!message.getValue().isEmpty() || message.getMustNotExist()) {
        throw WireValues.malformed("a delete with a value or must_not_exist");
      }
      return new Mutation.Delete(key, condition);
    }
    return new Mutation.Put(key, bytes(message.getValue()), condition);
  }

  public static List<Mutation> fromProto(List<io.cairn.protocol.Mutation> messages) {
    List<Mutation> mutations = new ArrayList<>(messages.size());
    for (io.cairn.protocol.Mutation m : messages) {
      mutations.add(fromProto(m));
    }
    return mutations;
  }

  /** The batch of KV table {@code table}. */
  public static io.cairn.protocol.TableBatch toProto(String table, List<Mutation> mutations) {
    io.cairn.protocol.TableBatch.Builder b =
        io.cairn.protocol.TableBatch.newBuilder().setTable(table);
    for (Mutation m : mutations) {
      b.addMutations(toProto(m));
    }
    return b.build();
  }

  /** null (each table's default) travels as DURABILITY_DEFAULT. */
  public static io.cairn.protocol.Durability toProto(Durability durability) {
    if (durability == null) {
      return io.cairn.protocol.Durability.DURABILITY_DEFAULT;
    }
    return switch (durability) {
      case SKIP -> io.cairn.protocol.Durability.DURABILITY_SKIP;
      case ASYNC -> io.cairn.protocol.Durability.DURABILITY_ASYNC;
      case SYNC -> io.cairn.protocol.Durability.DURABILITY_SYNC;
      case FSYNC -> io.cairn.protocol.Durability.DURABILITY_FSYNC;
    };
  }

  /** DURABILITY_DEFAULT is null: each table's default. */
  public static Durability fromProto(io.cairn.protocol.Durability durability) {
    return switch (durability) {
      case DURABILITY_DEFAULT -> null;
      case DURABILITY_SKIP -> Durability.SKIP;
      case DURABILITY_ASYNC -> Durability.ASYNC;
      case DURABILITY_SYNC -> Durability.SYNC;
      case DURABILITY_FSYNC -> Durability.FSYNC;
      case UNRECOGNIZED -> throw WireValues.malformed("an unknown durability");
    };
  }

  // --- regions -------------------------------------------------------------------------------

  public static io.cairn.protocol.TableStatistics toProto(TableStatistics statistics) {
    io.cairn.protocol.TableStatistics.Builder b =
        io.cairn.protocol.TableStatistics.newBuilder()
            .setGuidePostWidth(statistics.guidePostWidth())
            .setCollectedAtMillis(statistics.collectedAtMillis());
    for (TableStatistics.Chunk c : statistics.chunks()) {
      b.addChunks(
          io.cairn.protocol.StatisticsChunk.newBuilder()
              .setRegionId(c.regionId())
              .setStart(bytes(c.start()))
              .setStop(bytes(c.stop()))
              .setRows(c.rows())
              .setBytes(c.bytes()));
    }
    for (ColumnStatistics c : statistics.columns()) {
      b.addColumns(
          io.cairn.protocol.ColumnStatistics.newBuilder()
              .setRows(c.rows())
              .setDistinct(c.distinct())
              .setNulls(c.nulls())
              .setMin(WireValues.encode(c.min()))
              .setMax(WireValues.encode(c.max())));
    }
    return b.build();
  }

  /**
   * @throws CairnException PROTOCOL_ERROR when the message holds no chunk
   */
  public static TableStatistics fromProto(io.cairn.protocol.TableStatistics message) {
    if (message.getChunksCount() == 0) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "Table statistics: expected chunks covering the key space, found none");
    }
    List<TableStatistics.Chunk> chunks = new ArrayList<>(message.getChunksCount());
    for (io.cairn.protocol.StatisticsChunk c : message.getChunksList()) {
      chunks.add(
          new TableStatistics.Chunk(
              c.getRegionId(), bytes(c.getStart()), bytes(c.getStop()), c.getRows(), c.getBytes()));
    }
    List<ColumnStatistics> columns = new ArrayList<>(message.getColumnsCount());
    for (io.cairn.protocol.ColumnStatistics c : message.getColumnsList()) {
      columns.add(
          new ColumnStatistics(
              columns.size(),
              c.getRows(),
              c.getDistinct(),
              c.getNulls(),
              WireValues.decode(c.getMin()),
              WireValues.decode(c.getMax())));
    }
    return new TableStatistics(
        message.getGuidePostWidth(), chunks, message.getCollectedAtMillis(), columns);
  }

  /** A local index's statistics (none: no chunk) as the table statistics message. */
  public static io.cairn.protocol.TableStatistics toProto(Optional<IndexStatistics> statistics) {
    if (statistics.isEmpty()) {
      return io.cairn.protocol.TableStatistics.newBuilder()
          .setGuidePostWidth(-1)
          .setMinDistinctFirstParts(-1)
          .setMaxDistinctFirstParts(-1)
          .build();
    }
    IndexStatistics s = statistics.get();
    return toProto(new TableStatistics(s.guidePostWidth(), s.chunks(), s.collectedAtMillis()))
        .toBuilder()
        .setMinDistinctFirstParts(s.minDistinctFirstParts())
        .setMaxDistinctFirstParts(s.maxDistinctFirstParts())
        .build();
  }

  /**
   * The statistics of local index {@code indexId} in {@code message}; empty when it has no chunk.
   */
  public static Optional<IndexStatistics> indexStatisticsFromProto(
      int indexId, io.cairn.protocol.TableStatistics message) {
    if (message.getChunksCount() == 0) {
      return Optional.empty();
    }
    TableStatistics t = fromProto(message);
    return Optional.of(
        new IndexStatistics(
            indexId,
            t.guidePostWidth(),
            t.chunks(),
            message.getMinDistinctFirstParts(),
            message.getMaxDistinctFirstParts(),
            t.collectedAtMillis()));
  }

  public static io.cairn.protocol.Region toProto(RegionInfo region) {
    return io.cairn.protocol.Region.newBuilder()
        .setRegionId(region.regionId())
        .setStart(bytes(region.range().start()))
        .setStop(bytes(region.range().stop()))
        .setFileBytes(region.fileBytes())
        .setMemstoreBytes(region.memstoreBytes())
        .setFileCount(region.fileCount())
        .build();
  }

  public static RegionInfo fromProto(io.cairn.protocol.Region message) {
    return new RegionInfo(
        message.getRegionId(),
        new KeyRange(bytes(message.getStart()), bytes(message.getStop())),
        message.getFileBytes(),
        message.getMemstoreBytes(),
        message.getFileCount());
  }

  // --- errors --------------------------------------------------------------------------------

  /**
   * The error message for a failure: a {@link CairnException} keeps its code and message; a {@link
   * StackOverflowError} is STATEMENT_TOO_COMPLEX; anything else is an INTERNAL_ERROR naming the
   * exception.
   */
  public static Error toProto(Throwable failure) {
    ErrorCode code;
    String message;
    if (failure instanceof CairnException e) {
      code = e.errorCode();
      message = e.getMessage();
    } else if (failure instanceof StackOverflowError) {
      // a thread's stack exhausted by a request (a deep expression): that request's error only
      code = ErrorCode.STATEMENT_TOO_COMPLEX;
      message =
          "Statement too complex: running it exhausted the server's stack (an expression nested"
              + " too deeply); split it into simpler statements";
    } else {
      code = ErrorCode.INTERNAL_ERROR;
      message = "Internal error on the server: " + failure;
    }
    Error.Builder b =
        Error.newBuilder()
            .setCode(code.code())
            .setSqlState(code.sqlState())
            .setMessage(message == null ? "" : message);
    if (failure instanceof ConditionFailedException c) {
      b.setConditionFailed(true)
          .setBatchIndex(c.batchIndex())
          .setMutationIndex(c.mutationIndex())
          .setKey(ByteString.copyFrom(c.key().peekArray()))
          .setConditionKind(toProto(c.kind()));
    }
    return b.build();
  }

  /**
   * The exception an error message stands for, thrown on the client: a failed condition is a {@link
   * ConditionFailedException} of its kind (no kind: MUST_NOT_EXIST, as older servers send).
   */
  public static CairnException fromProto(Error error) {
    if (error.getConditionFailed()) {
      Mutation.Condition.Kind kind =
          switch (error.getConditionKind()) {
            case CONDITION_NONE, CONDITION_MUST_NOT_EXIST -> Mutation.Condition.Kind.MUST_NOT_EXIST;
            case CONDITION_UNCHANGED_SINCE -> Mutation.Condition.Kind.UNCHANGED_SINCE;
            case UNRECOGNIZED -> null; // a newer server's kind: its code and message as they are
          };
      if (kind != null) {
        return new ConditionFailedException(
            error.getBatchIndex(), error.getMutationIndex(), bytes(error.getKey()), kind);
      }
    }
    return new CairnException(ErrorCode.fromCode(error.getCode()), error.getMessage());
  }

  public static io.cairn.protocol.ConditionKind toProto(Mutation.Condition.Kind kind) {
    return switch (kind) {
      case NONE -> io.cairn.protocol.ConditionKind.CONDITION_NONE;
      case MUST_NOT_EXIST -> io.cairn.protocol.ConditionKind.CONDITION_MUST_NOT_EXIST;
      // both a conflict to the client: the row changed after it was read
      case UNCHANGED_SINCE, VALUE_IS -> io.cairn.protocol.ConditionKind.CONDITION_UNCHANGED_SINCE;
    };
  }

  // --- bytes ---------------------------------------------------------------------------------

  public static ByteString bytes(Bytes bytes) {
    return bytes.isEmpty() ? ByteString.EMPTY : ByteString.copyFrom(bytes.peekArray());
  }

  public static Bytes bytes(ByteString bytes) {
    return bytes.isEmpty() ? Bytes.EMPTY : Bytes.wrap(bytes.toByteArray());
  }
}
