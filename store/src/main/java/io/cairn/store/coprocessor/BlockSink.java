package io.cairn.store.coprocessor;

import io.cairn.store.cell.BlockRun;

/** Takes the selected rows of a block from its vectors (see {@link ProgramRows#sinkBlocks}). */
interface BlockSink {
  /**
   * Adds the {@code count} rows of {@code run} at {@code selection[0, count)} (all rows, in order,
   * when null); false when it added nothing and the block's rows must be read instead.
   */
  boolean add(BlockRun run, int[] selection, int count);
}
