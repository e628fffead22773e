package io.cairn.hbase.server;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A region scanner that reads the region scanner it wraps and answers cells of its own making
 * (pages of a program's rows, a count, a build's progress), each in an HBase row of its own ({@link
 * #answerRow}); subclasses implement {@link #nextRaw(List)}.
 */
abstract class AnsweringRegionScanner implements RegionScanner {
  /** The region's rows. */
  protected final RegionScanner region;

  private long answers;

  AnsweringRegionScanner(RegionScanner region) {
    this.region = region;
  }

  @Override
  public final boolean next(List<Cell> out, ScannerContext context) throws IOException {
    return nextRaw(out);
  }

  @Override
  public final boolean nextRaw(List<Cell> out, ScannerContext context) throws IOException {
    return nextRaw(out);
  }

  /** The HBase row of the next answer: the region's start key and the answer's number. */
  protected final byte[] answerRow() {
    byte[] start = region.getRegionInfo().getStartKey();
    byte[] row = java.util.Arrays.copyOf(start, start.length + Long.BYTES);
    Bytes.putLong(row, start.length, answers++);
    return row;
  }

  @Override
  public final RegionInfo getRegionInfo() {
    return region.getRegionInfo();
  }

  @Override
  public final boolean isFilterDone() {
    // never: HBase ends the whole scan, every later region too, when a region answers nothing and
    // its scanner's filter says done; a region's end is nextRaw's false
    return false;
  }

  @Override
  public final boolean reseek(byte[] row) throws IOException {
    throw new DoNotRetryIOException("A Cairn scan program cannot reseek");
  }

  @Override
  public final long getMaxResultSize() {
    return region.getMaxResultSize();
  }

  @Override
  public final long getMvccReadPoint() {
    return region.getMvccReadPoint();
  }

  @Override
  public final int getBatch() {
    return region.getBatch();
  }
}
