package io.cairn.store.cell;

import java.nio.ByteBuffer;

/** Row cursors that need no source. */
public final class RowCursors {
  /** A cursor without rows. */
  public static final RowCursor EMPTY =
      new RowCursor() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public byte[] keyArray() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int keyOffset() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int keyLength() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public ByteBuffer valueBuffer() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int valueOffset() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public int valueLength() {
          throw new IllegalStateException("No current row");
        }

        @Override
        public void close() {}
      };

  private RowCursors() {}
}
