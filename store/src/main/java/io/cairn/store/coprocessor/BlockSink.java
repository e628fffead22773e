package io.cairn.store.coprocessor;

import io.cairn.store.cell.BlockRun;

/** Takes the selected rows of a block from its vectors (see {@link ProgramRows#sinkBlocks}). */
interface BlockSink {
  /**
   * Adds the {@code count} rows of {@code run} at {@code selection[0, count)} (all rows, in order,
   * when null) and returns how many of them must still be read one by one: 0 when it took them all,
   * {@code count} when it took none (the selected rows are read), or a number in between when it
   * needs only some of them read: their indexes, ascending, are then in {@code narrowed[0,
   * returned)} ({@code narrowed} may be {@code selection}, written as it is read).
   */
  int add(BlockRun run, int[] selection, int count, int[] narrowed);

  /** A sink that takes a block's selected rows whole or not at all. */
  interface Whole {
    /** Adds the rows as {@link BlockSink#add} does; false when it took none. */
    boolean add(BlockRun run, int[] selection, int count);
  }

  /** {@code sink} as a BlockSink. */
  static BlockSink whole(Whole sink) {
    return (run, selection, count, narrowed) -> sink.add(run, selection, count) ? 0 : count;
  }
}
