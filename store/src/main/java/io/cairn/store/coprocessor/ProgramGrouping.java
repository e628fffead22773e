package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.END;
import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;
import static io.cairn.store.coprocessor.ProgramRows.YIELDED;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.agg.GroupKey;
import io.cairn.core.agg.LongAccumulator;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.NumberBatch;
import io.cairn.core.expr.NumberVector;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.memory.MemoryPool;
import io.cairn.store.cell.BlockRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The hash aggregation of a program with a GROUP BY: reads every kept row into the accumulators of
 * its group, then emits one row per group (key values, then partial states). A key of plain
 * integer, date or string columns finds its group from the row's bytes ({@link GroupsByBytes}) and
 * the arguments are read by {@link AggregateInputs}: no object per row; other keys decode the row.
 * Its groups are counted by an {@link AggregationMemory} (limit {@code cairn.aggregate.max-bytes},
 * AGGREGATE_MEMORY_EXCEEDED past it) in a reservation of the scan's pool. Used by the scanning
 * thread of its {@link ProgramScanner} only.
 *
 * <p>When the key is the table's first key columns and the rows come in key order, the groups of
 * the rows read so far are emitted and dropped whenever they reach {@value #EMIT_AT}: all but the
 * last are complete, and a group emitted in two pieces is joined by the driver's merge of partial
 * states (as groups of several chunks are), so a GROUP BY of a key prefix (TPC-H Q18's L_ORDERKEY)
 * holds a few thousand groups, not millions.
 */
final class ProgramGrouping {
  private final ProgramRows rows;
  private final List<AggregateCall> aggregates;
  private final int[] keyColumns;
  private final int partialWidth;

  /** Limit of the hash table, in estimated bytes. */
  private final long aggregateMaxBytes;

  /** The scan's own pool. */
  private final MemoryPool memory;

  /** The groups read so far; null before the first row and once all rows are read. */
  private Map<GroupKey, Group> groups;

  /** What the groups hold; null before the first row. */
  private AggregationMemory groupMemory;

  /** The groups to emit once all rows are read; null before. */
  private Iterator<Group> groupOutput;

  private Object[] arguments;

  /** The groups when found by bytes, or null (then {@link #groups} holds them). */
  private GroupsByBytes byBytes;

  /** The groups found by bytes, by their number there (and in the order found). */
  private List<Group> byNumber = new ArrayList<>();

  /**
   * The accumulators of the groups found by bytes, by their number there: {@link #byNumber}'s
   * groups' own, kept apart so that a row reaches them with one dereference fewer.
   */
  private Accumulator[][] accumulatorsOf = new Accumulator[16][];

  /** The layout columns of the key, when found by bytes. */
  private int[] keyLayoutColumns;

  private final int[] keyPositions;

  /** How rows reach the accumulators when groups are found by bytes. */
  private AggregateInputs inputs;

  /** One group: its key values and accumulators; {@code index} in the order found. */
  private record Group(Object[] keys, Accumulator[] accumulators, int index) {}

  /**
   * Rows counted in batches ({@link #countRows}): their keys (longs and NULL flags, per row the
   * key's columns), hashes and groups; {@link #counted} is null when rows are not batched.
   */
  private long[] counted;

  private boolean[] countedNulls;
  private final int[] countedHashes = new int[COUNTED_ROWS];
  private final int[] countedNumbers = new int[COUNTED_ROWS];
  private int countedRows;
  private long[] countedKey;
  private boolean[] countedKeyNulls;

  /** The rows of a batch of {@link #countRows}. */
  static final int COUNTED_ROWS = 256;

  /** How many groups were found (since the last ones were emitted). */
  private int groupCount;

  /** Groups held before they are emitted when the key is a key prefix read in key order. */
  static final int EMIT_AT = 1024;

  /** Whether the groups are emitted at EMIT_AT (the key is a key prefix read in key order). */
  private boolean emitsEarly;

  /** Whether the groups being emitted were emitted early (the rows go on after them). */
  private boolean emittingEarly;

  /** The key columns as vectors of a block, when blocks are read as vectors; else null. */
  private VectorColumn[] keyVectors;

  /** Per group found: its index among the groups of the current block, or -1. */
  private int[] blockSlot = new int[16];

  /** The groups of the current block, by their index there. */
  private Accumulator[][] blockGroups = new Accumulator[16][];

  /** Per row of the current block: the index of its group there. */
  private final int[] groupOfRow = new int[NumberBatch.CAPACITY];

  /** Blocks added from their vectors, and blocks sent to the rows instead. */
  private int blocksAdded;

  private int blocksRefused;

  /** How many keys of a block {@link #addBlock} remembers with their slots (a power of two). */
  private static final int MEMO_KEYS = 4;

  /** The keys remembered (two longs each), their NULL flags (a bit per column) and slots. */
  private final long[] memoKeys = new long[2 * MEMO_KEYS];

  private final int[] memoNulls = new int[MEMO_KEYS];
  private final int[] memoSlots = new int[MEMO_KEYS];
  private int memoCount;
  private int memoNext;

  /** A row's key as longs, and the key columns' values of the current block. */
  private long[] key;

  private long[][] keyValues;

  private boolean[] keyNulls;
  private byte[][] keyStatus;

  ProgramGrouping(ProgramRows rows, long aggregateMaxBytes, MemoryPool memory) {
    this.rows = rows;
    this.aggregates = rows.compiled.program.aggregates();
    this.keyColumns = rows.compiled.groupColumns;
    // made here, not on the first group: see BlockSums
    this.keyPositions = new int[keyColumns.length];
    for (int k = 0; k < keyPositions.length; k++) {
      keyPositions[k] = k;
    }
    this.partialWidth = rows.compiled.partialWidth;
    this.aggregateMaxBytes = aggregateMaxBytes;
    this.memory = memory;
  }

  /**
   * Feeds every kept row to the accumulators of its group; once all rows are read, emits one row
   * per group: its key values, then the partial states. NOT_YET while reading when the deadline
   * passes (the groups are kept for the next call).
   */
  Object[] next() {
    if (groupOutput == null) {
      if (groups == null) {
        groups = new LinkedHashMap<>(); // emitted in the order seen: key order for a key prefix
        groupMemory =
            new AggregationMemory(
                aggregateMaxBytes,
                ProgramScanner.SCAN_SETTING,
                "in the store (one scan)",
                memory.reservation("a grouped aggregation in the store"));
        arguments = new Object[rows.projection.length];
        byBytes = groupsByBytes();
      }
      int found;
      if (byBytes != null) {
        found = readByBytes();
      } else {
        while ((found = rows.nextKept()) == KEPT) {
          rows.projectInto(arguments);
          GroupKey key = GroupKey.of(arguments, keyColumns);
          Group group = groups.get(key);
          if (group == null) {
            groupMemory.addGroup(arguments, keyColumns, aggregates.size());
            Object[] keys = new Object[keyColumns.length];
            for (int i = 0; i < keys.length; i++) {
              keys[i] = arguments[keyColumns[i]];
            }
            group = new Group(keys, newAccumulators(), groupCount++);
            groups.put(key, group);
          }
          for (Accumulator accumulator : group.accumulators()) {
            accumulator.add(arguments);
          }
        }
      }
      if (found == PAUSED) {
        return ProgramScanner.NOT_YET;
      }
      if (found == YIELDED) {
        // the groups so far go out now; the rows go on after them
        inputs.flush();
        groupOutput = drain(completePassing(takeFound()));
        byBytes.reset();
        groupMemory.groupsGone();
        groupCount = 0;
        emittingEarly = true;
      } else {
        rows.closeRowsEarly();
        groupOutput =
            byBytes != null ? drain(completePassing(takeFound())) : groups.values().iterator();
        groups = null;
        byBytes = null;
      }
    }
    if (!groupOutput.hasNext()) {
      if (emittingEarly) {
        emittingEarly = false;
        groupOutput = null;
        return next();
      }
      groupMemory.close(); // every group emitted: their memory goes now, not at close
      return null;
    }
    Group group = groupOutput.next();
    groupOutput.remove();
    Object[] result = new Object[keyColumns.length + partialWidth];
    System.arraycopy(group.keys(), 0, result, 0, keyColumns.length);
    int at = keyColumns.length;
    Accumulator[] accumulators = group.accumulators();
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
  }

  /**
   * The groups of a key of plain columns found by their bytes (see {@link GroupsByBytes}), or null.
   */
  private GroupsByBytes groupsByBytes() {
    if (rows.probes()) {
      return null;
    }
    keyLayoutColumns = new int[keyColumns.length];
    for (int k = 0; k < keyColumns.length; k++) {
      keyLayoutColumns[k] = rows.projectedColumns[keyColumns[k]];
    }
    RowLayout layout = rows.compiled.program.layout();
    emitsEarly = rows.inKeyOrder() && layout.isKeyPrefix(keyLayoutColumns);
    return GroupsByBytes.of(keyLayoutColumns, layout);
  }

  /**
   * Reads the kept rows into the groups found by bytes: the arguments are read by {@link
   * AggregateInputs}, a new group decodes its key values. Returns what {@code nextKept} returned
   * last (END or PAUSED).
   */
  private int readByBytes() {
    RowReader reader = rows.reader;
    int found;
    while ((found = rows.nextKept()) == KEPT) {
      if (counted != null) {
        int at = countedRows * keyColumns.length;
        countedHashes[countedRows] = byBytes.readKey(reader, counted, countedNulls, at);
        if (++countedRows == COUNTED_ROWS) {
          countRows();
        }
        continue;
      }
      int number = byBytes.find(reader);
      Accumulator[] accumulators;
      if (number < 0) {
        Object[] keys = new Object[keyColumns.length];
        for (int k = 0; k < keys.length; k++) {
          keys[k] = reader.getObject(keyLayoutColumns[k]);
        }
        Group group = newGroup(keys);
        accumulators = group.accumulators();
        if (inputs == null) {
          inputs = new AggregateInputs(rows, accumulators);
          sinkBlocks();
          if (inputs.countsRowsOnly() && byBytes.longsOnly() && !emitsEarly) {
            counted = new long[COUNTED_ROWS * keyColumns.length];
            countedNulls = new boolean[counted.length];
            countedKey = new long[keyColumns.length];
            countedKeyNulls = new boolean[keyColumns.length];
          }
        }
        byBytes.add(reader, keys);
        if (emitsEarly && groupCount >= EMIT_AT) {
          rows.yieldSoon();
        }
      } else {
        accumulators = accumulatorsOf[number];
      }
      inputs.add(accumulators);
    }
    if (countedRows > 0) {
      countRows();
    }
    if (found == END && inputs != null) {
      inputs.finish();
    }
    return found;
  }

  /**
   * Counts the rows whose keys {@link #counted} holds in their groups (made where new): the groups
   * are found for the whole batch, then each row's counts are added, so that the cache misses of
   * one row's lookup overlap with the next rows' (a table of 100,000 groups is not in the CPU's
   * caches: TPC-H Q13 counts 1,500,000 orders by customer). For aggregates that only count rows
   * ({@link AggregateInputs#countsRowsOnly}), over keys of longs.
   */
  private void countRows() {
    int keys = keyColumns.length;
    int[] numbers = countedNumbers;
    for (int r = 0; r < countedRows; r++) {
      int number = byBytes.find(countedHashes[r], counted, countedNulls, r * keys);
      if (number < 0) {
        System.arraycopy(counted, r * keys, countedKey, 0, keys);
        System.arraycopy(countedNulls, r * keys, countedKeyNulls, 0, keys);
        number = addGroup(countedKey, countedKeyNulls);
      }
      numbers[r] = number;
    }
    for (int r = 0; r < countedRows; r++) {
      for (Accumulator accumulator : accumulatorsOf[numbers[r]]) {
        ((LongAccumulator) accumulator).addLong(1);
      }
    }
    countedRows = 0;
  }

  /**
   * Lets the rows hand whole blocks to {@link #addBlock} when every call can be added from vectors
   * and every key column is read as a long (an integer, date, time or boolean by getLong; a string
   * or binary by its short bytes).
   */
  private void sinkBlocks() {
    List<VectorColumn> arguments = inputs.vectorColumns();
    if (arguments == null) {
      return;
    }
    keyVectors = new VectorColumn[keyLayoutColumns.length];
    key = new long[keyVectors.length];
    keyValues = new long[keyVectors.length][];
    keyNulls = new boolean[keyVectors.length];
    keyStatus = new byte[keyVectors.length][];
    List<VectorColumn> columns = new ArrayList<>(arguments);
    for (int k = 0; k < keyVectors.length; k++) {
      byte kind = byBytes.bytesColumn(k) ? VectorColumn.SHORT_BYTES : RowReader.LONG;
      keyVectors[k] = new VectorColumn(keyLayoutColumns[k], kind, 0);
      if (!columns.contains(keyVectors[k])) {
        columns.add(keyVectors[k]);
      }
    }
    rows.sinkBlocks(BlockSink.whole(this::addBlock), columns);
  }

  /**
   * Adds a block's selected rows to their groups, making the groups of keys not found yet from the
   * key vectors' longs; false when a key's bytes are too long for a long or an argument leaves the
   * vectors' exact path (the block's rows are then read one at a time; groups it made meanwhile get
   * their rows from there).
   */
  private boolean addBlock(BlockRun run, int[] selection, int count) {
    if (count > NumberBatch.CAPACITY || byBytes == null) {
      return false;
    }
    int keys = keyVectors.length;
    long[][] keyValues = this.keyValues;
    byte[][] keyStatus = this.keyStatus;
    for (int k = 0; k < keys; k++) {
      NumberVector v = run.numbers(keyVectors[k]);
      if (v.unfit > 0) {
        return false; // bytes too long for a long
      }
      keyValues[k] = v.longs;
      keyStatus[k] = v.status;
    }
    if (blockSlot.length < groupCount) {
      blockSlot = Arrays.copyOf(blockSlot, Math.max(groupCount, 2 * blockSlot.length));
    }
    Arrays.fill(blockSlot, 0, groupCount, -1);
    int found = 0;
    long[] key = this.key;
    int lastSlot = -1; // the group of the row before, while the key stays the same
    memoCount = 0; // slots are the block's
    for (int i = 0; i < count; i++) {
      int row = selection == null ? i : selection[i];
      boolean same = lastSlot >= 0;
      for (int k = 0; k < keys; k++) {
        long v = keyValues[k][row];
        boolean isNull = keyStatus[k] != null && keyStatus[k][row] == RowReader.NUMBER_NULL;
        same &= v == key[k] && isNull == keyNulls[k];
        key[k] = v;
        keyNulls[k] = isNull;
      }
      if (same) {
        groupOfRow[i] = lastSlot; // rows of a group often come together (an order's lines)
        continue;
      }
      // the last keys of one or two columns this block met, with their slots: a block of a few
      // groups taking turns (TPC-H Q1's four) looks each row's up here, not in the table
      long k0 = keys > 0 ? key[0] : 0;
      long k1 = keys > 1 ? key[1] : 0;
      int nulls = (keys > 0 && keyNulls[0] ? 1 : 0) | (keys > 1 && keyNulls[1] ? 2 : 0);
      int memo = -1;
      if (keys <= 2) {
        for (int j = 0; j < memoCount; j++) {
          if (memoKeys[2 * j] == k0 && memoKeys[2 * j + 1] == k1 && memoNulls[j] == nulls) {
            memo = j;
            break;
          }
        }
      }
      if (memo >= 0) {
        lastSlot = memoSlots[memo];
        groupOfRow[i] = lastSlot;
        continue;
      }
      int number = byBytes.find(key, keyNulls);
      if (number < 0) {
        number = addGroup(key, keyNulls);
      }
      int slot = blockSlot[number];
      if (slot < 0) {
        if (found == blockGroups.length) {
          blockGroups = Arrays.copyOf(blockGroups, 2 * found);
        }
        slot = found++;
        blockSlot[number] = slot;
        blockGroups[slot] = accumulatorsOf[number];
      }
      groupOfRow[i] = slot;
      lastSlot = slot;
      if (keys <= 2) {
        int j = memoCount < MEMO_KEYS ? memoCount++ : memoNext++ & (MEMO_KEYS - 1);
        memoKeys[2 * j] = k0;
        memoKeys[2 * j + 1] = k1;
        memoNulls[j] = nulls;
        memoSlots[j] = slot;
      }
    }
    boolean added = inputs.addBlock(blockGroups, found, groupOfRow, run, selection, count);
    Arrays.fill(blockGroups, 0, found, null);
    if (emitsEarly && groupCount >= EMIT_AT) {
      rows.yieldSoon();
    }
    if (added) {
      blocksAdded++;
    } else if (++blocksRefused >= 8 && blocksRefused > 4 * blocksAdded) {
      // most blocks need their rows (long strings, numbers past a long): the vectors only cost
      rows.stopSinking();
    }
    return added;
  }

  /** A new group of a key read from a block's vectors (see {@link GroupsByBytes#keyValue}). */
  private int addGroup(long[] key, boolean[] nulls) {
    Object[] keys = new Object[key.length];
    for (int k = 0; k < keys.length; k++) {
      keys[k] = nulls[k] ? null : byBytes.keyValue(k, key[k]);
    }
    Group group = newGroup(keys);
    if (blockSlot.length < groupCount) {
      int from = blockSlot.length;
      blockSlot = Arrays.copyOf(blockSlot, Math.max(groupCount, 2 * from));
      Arrays.fill(blockSlot, from, blockSlot.length, -1);
    }
    blockSlot[group.index()] = -1;
    byBytes.add(key, nulls);
    return group.index();
  }

  /**
   * A new group found by bytes, numbered as {@link GroupsByBytes} numbers it (the next one), its
   * memory counted.
   */
  private Group newGroup(Object[] keys) {
    groupMemory.addGroup(keys, keyPositions, aggregates.size());
    Group group = new Group(keys, newAccumulators(), groupCount++);
    byNumber.add(group);
    if (group.index() == accumulatorsOf.length) {
      accumulatorsOf = Arrays.copyOf(accumulatorsOf, 2 * group.index());
    }
    accumulatorsOf[group.index()] = group.accumulators();
    return group;
  }

  /** The groups found by bytes, in order; none are held afterwards. */
  private List<Group> takeFound() {
    List<Group> taken = byNumber;
    byNumber = new ArrayList<>();
    Arrays.fill(accumulatorsOf, 0, taken.size(), null);
    return taken;
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] accumulators = new Accumulator[aggregates.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(aggregates.get(i));
    }
    return accumulators;
  }

  /**
   * {@code entries} (the groups of a batch, in key order) without the complete groups for which the
   * program's HAVING hint is not TRUE, when groups are emitted early (rows in key order by the
   * group keys): every group but the batch's first (which may have begun in an earlier batch or
   * before the scan's range) and last (which may go on in the next batch or past the range) is
   * complete. All of them otherwise.
   */
  private List<Group> completePassing(List<Group> entries) {
    RowExpression having = rows.compiled.having;
    if (having == null || !emitsEarly || entries.size() <= 2) {
      return entries;
    }
    Object[] row = new Object[keyColumns.length + aggregates.size()];
    List<Group> kept = new ArrayList<>();
    int last = entries.size() - 1;
    for (int i = 0; i <= last; i++) {
      Group group = entries.get(i);
      if (i == 0 || i == last) {
        kept.add(group);
        continue;
      }
      System.arraycopy(group.keys(), 0, row, 0, keyColumns.length);
      Accumulator[] accumulators = group.accumulators();
      for (int a = 0; a < accumulators.length; a++) {
        row[keyColumns.length + a] = accumulators[a].result();
      }
      if (Boolean.TRUE.equals(having.evaluate(row, rows.context))) {
        kept.add(group);
      }
    }
    return kept;
  }

  /** The groups' values in order, each dropped from the list as it is handed out. */
  private static Iterator<Group> drain(List<Group> entries) {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < entries.size();
      }

      @Override
      public Group next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Group group = entries.get(next);
        entries.set(next++, null);
        return group;
      }

      @Override
      public void remove() {
        // handed-out entries are already dropped
      }
    };
  }

  /** Whether the grouping has started, and so holds memory until {@link #release()}. */
  boolean holdsMemory() {
    return groupMemory != null;
  }

  /** Drops the groups and gives their reservation back (idempotent). */
  void release() {
    groups = null;
    byBytes = null;
    groupOutput = null;
    if (groupMemory != null) {
      groupMemory.close();
    }
  }
}
