package io.cairn.store.coprocessor;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows a sort in the store keeps, as bytes: each row's sort key (order-preserving bytes that
 * compare unsigned, see {@link ProgramSort}), row key and value cell copied one after the other
 * into a few large pages, and per row a slot of two longs, its prefix and its address (page,
 * offset). A prefix is any function of the sort key that does not decrease as the key grows,
 * compared unsigned: the first 8 bytes of the key ({@link #bytesPrefix}), or the first key's value
 * as a long (see {@link ProgramSort}); rows with different prefixes are ordered by them. {@link
 * #sort} orders the slots by their prefixes, comparing whole sort keys only where prefixes are
 * equal, so that sorting touches the pages only on such ties; rows are decoded only when emitted,
 * from {@link #page}, {@link #keyOffset} and the like.
 *
 * <p>Every page and slot array is counted in the sort's {@link MemoryReservation} before it is
 * allocated (MEMORY_LIMIT_EXCEEDED when a pool refuses: then nothing is allocated). Not
 * thread-safe.
 */
final class SortBuffer {
  /** A row's header in its page: the lengths of its sort key, row key and value cell. */
  private static final int HEADER = 12;

  /** The first page's size; each next page doubles, up to {@link #MAX_PAGE}. */
  private static final int FIRST_PAGE = 16 << 10;

  private static final int MAX_PAGE = 1 << 20;

  /** The bytes of one row's slot (prefix and address). */
  static final int SLOT_BYTES = 16;

  /** Fewer rows than this are sorted by a quicksort, more by a radix sort. */
  private static final int RADIX_SORT = 1024;

  /** Ranges at most this long are sorted by insertion. */
  private static final int INSERTION_SORT = 12;

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final MemoryReservation memory;
  private final List<byte[]> pages = new ArrayList<>();

  /** The pages wrapped once for the row reader, made when the first row is read back. */
  private ByteBuffer[] views;

  private byte[] page;
  private int pageUsed;
  private long pageBytes;

  private long[] prefixes = new long[0];
  private long[] addresses = new long[0];
  private int size;

  SortBuffer(MemoryReservation memory) {
    this.memory = memory;
  }

  int size() {
    return size;
  }

  /**
   * Appends a row: its sort key {@code sortKey[0, sortKeyLength)}, its row key and its value cell
   * (absolute indexes into {@code value}, which stays untouched).
   */
  void add(
      long prefix,
      byte[] sortKey,
      int sortKeyLength,
      byte[] key,
      int keyOffset,
      int keyLength,
      ByteBuffer value,
      int valueOffset,
      int valueLength) {
    int length = HEADER + sortKeyLength + keyLength + valueLength;
    int at = reserveRow(length);
    byte[] p = page;
    INT.set(p, at, sortKeyLength);
    INT.set(p, at + 4, keyLength);
    INT.set(p, at + 8, valueLength);
    int to = at + HEADER;
    System.arraycopy(sortKey, 0, p, to, sortKeyLength);
    to += sortKeyLength;
    System.arraycopy(key, keyOffset, p, to, keyLength);
    to += keyLength;
    value.get(valueOffset, p, to, valueLength);
    addSlot(prefix, at);
  }

  /**
   * Room for a row of {@code length} bytes in the current page (a new one if needed): its offset.
   */
  private int reserveRow(int length) {
    if (page == null || page.length - pageUsed < length) {
      int size = page == null ? FIRST_PAGE : Math.min(MAX_PAGE, page.length * 2);
      size = Math.max(size, length);
      memory.add(size);
      page = new byte[size];
      pages.add(page);
      pageBytes += size;
      pageUsed = 0;
      views = null;
    }
    int at = pageUsed;
    pageUsed += length;
    return at;
  }

  private void addSlot(long prefix, int offset) {
    if (size == prefixes.length) {
      int capacity = Math.max(64, size + (size >> 1));
      memory.add((long) (capacity - size) * SLOT_BYTES);
      prefixes = Arrays.copyOf(prefixes, capacity);
      addresses = Arrays.copyOf(addresses, capacity);
    }
    prefixes[size] = prefix;
    addresses[size] = ((long) (pages.size() - 1) << 32) | offset;
    size++;
  }

  /** The first 8 bytes of {@code key[from, from + length)}, big endian, zero-padded. */
  static long bytesPrefix(byte[] key, int from, int length) {
    if (length >= 8) {
      return (long) LONG.get(key, from);
    }
    long prefix = 0;
    for (int i = 0; i < 8; i++) {
      prefix = (prefix << 8) | (i < length ? key[from + i] & 0xFF : 0);
    }
    return prefix;
  }

  /**
   * Sorts the rows by their sort keys, rows with equal keys in the order they were added (the radix
   * sort is stable, the quicksort breaks ties by address): a radix sort of the prefixes (least
   * significant byte first, skipping bytes that all prefixes share; its two temporary arrays
   * counted while it runs, else a quicksort in place), then, unless {@code exactPrefixes} (equal
   * prefixes only of equal keys), each run of equal prefixes by whole keys.
   */
  void sort(boolean exactPrefixes) {
    if (size < RADIX_SORT || !radixSort()) {
      quickSort(0, size);
      return;
    }
    if (exactPrefixes) {
      return;
    }
    long[] prefixes = this.prefixes;
    int from = 0;
    while (from < size) {
      int to = from + 1;
      while (to < size && prefixes[to] == prefixes[from]) {
        to++;
      }
      if (to - from > 1) {
        quickSort(from, to);
      }
      from = to;
    }
  }

  /** Radix-sorts the slots by prefix; false when the temporary arrays do not fit the memory. */
  private boolean radixSort() {
    int n = size;
    long temporary = (long) n * SLOT_BYTES;
    try {
      memory.add(temporary);
    } catch (CairnException e) {
      if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
        throw e;
      }
      return false;
    }
    try {
      int[] counts = new int[8 * 256];
      long[] sourcePrefixes = prefixes;
      for (int i = 0; i < n; i++) {
        long p = sourcePrefixes[i];
        for (int b = 0; b < 8; b++) {
          counts[(b << 8) | (int) ((p >>> (b << 3)) & 0xFF)]++;
        }
      }
      long[] sourceAddresses = addresses;
      long[] targetPrefixes = new long[n];
      long[] targetAddresses = new long[n];
      int[] offsets = new int[256];
      for (int b = 0; b < 8; b++) { // byte b counts from the least significant
        int base = b << 8;
        int sum = 0;
        boolean shared = false;
        for (int d = 0; d < 256; d++) {
          int c = counts[base | d];
          if (c == n) {
            shared = true;
            break;
          }
          offsets[d] = sum;
          sum += c;
        }
        if (shared) {
          continue;
        }
        int shift = b << 3;
        for (int i = 0; i < n; i++) {
          long p = sourcePrefixes[i];
          int at = offsets[(int) ((p >>> shift) & 0xFF)]++;
          targetPrefixes[at] = p;
          targetAddresses[at] = sourceAddresses[i];
        }
        long[] t = sourcePrefixes;
        sourcePrefixes = targetPrefixes;
        targetPrefixes = t;
        t = sourceAddresses;
        sourceAddresses = targetAddresses;
        targetAddresses = t;
      }
      if (sourcePrefixes != prefixes) {
        System.arraycopy(sourcePrefixes, 0, prefixes, 0, n);
        System.arraycopy(sourceAddresses, 0, addresses, 0, n);
      }
      return true;
    } finally {
      memory.free(temporary);
    }
  }

  /**
   * Sorts the rows and keeps the first {@code count} of them, copied into new pages: the others'
   * pages and slots are given back to the reservation.
   */
  void keepFirst(int count, boolean exactPrefixes) {
    sort(exactPrefixes);
    if (count >= size) {
      return;
    }
    List<byte[]> old = new ArrayList<>(pages);
    long oldPageBytes = pageBytes;
    long[] oldAddresses = addresses;
    int kept = count;
    pages.clear();
    page = null;
    pageUsed = 0;
    pageBytes = 0;
    views = null;
    for (int i = 0; i < kept; i++) {
      byte[] from = old.get((int) (oldAddresses[i] >>> 32));
      int offset = (int) oldAddresses[i];
      int length =
          HEADER
              + (int) INT.get(from, offset)
              + (int) INT.get(from, offset + 4)
              + (int) INT.get(from, offset + 8);
      int at = reserveRow(length);
      System.arraycopy(from, offset, page, at, length);
      addresses[i] = ((long) (pages.size() - 1) << 32) | at;
    }
    size = kept;
    memory.free(oldPageBytes);
  }

  /**
   * Compares row {@code i}'s sort key with {@code key[0, length)}, unsigned: negative, zero or
   * positive as the row's key is less, equal or greater.
   */
  int compareKey(int i, byte[] key, int length) {
    byte[] p = pages.get((int) (addresses[i] >>> 32));
    int at = (int) addresses[i];
    int from = at + HEADER;
    return Arrays.compareUnsigned(p, from, from + (int) INT.get(p, at), key, 0, length);
  }

  /** Row {@code i}'s prefix. */
  long prefix(int i) {
    return prefixes[i];
  }

  /** Copies row {@code i}'s sort key into a new array. */
  byte[] copyKey(int i) {
    byte[] p = pages.get((int) (addresses[i] >>> 32));
    int at = (int) addresses[i];
    return Arrays.copyOfRange(p, at + HEADER, at + HEADER + (int) INT.get(p, at));
  }

  // ---------------------------------------------------------------- reading rows back

  /** The key array of row {@code i} (in sorted order after {@link #sort}). */
  byte[] page(int i) {
    return pages.get((int) (addresses[i] >>> 32));
  }

  /** The value buffer of row {@code i}: its page, wrapped. */
  ByteBuffer view(int i) {
    if (views == null) {
      views = pages.stream().map(ByteBuffer::wrap).toArray(ByteBuffer[]::new);
    }
    return views[(int) (addresses[i] >>> 32)];
  }

  int keyOffset(int i) {
    int at = (int) addresses[i];
    return at + HEADER + (int) INT.get(page(i), at);
  }

  int sortKeyLength(int i) {
    return (int) INT.get(page(i), (int) addresses[i]);
  }

  int keyLength(int i) {
    return (int) INT.get(page(i), (int) addresses[i] + 4);
  }

  int valueOffset(int i) {
    return keyOffset(i) + keyLength(i);
  }

  int valueLength(int i) {
    return (int) INT.get(page(i), (int) addresses[i] + 8);
  }

  // ---------------------------------------------------------------- sorting the slots

  /**
   * Orders slots {@code i} and {@code j}: prefixes first, whole sort keys on equal prefixes, and
   * rows of equal keys in the order they were added (their addresses grow with it, and {@link
   * #keepFirst} copies the kept rows in their order): the sort is stable, so rows of equal keys
   * come in the order the scan read them (row key order), as a merge of index order expects.
   */
  private int compare(long prefixA, long addressA, long prefixB, long addressB) {
    int c = Long.compareUnsigned(prefixA, prefixB);
    if (c != 0) {
      return c;
    }
    c = compareKeys(addressA, addressB);
    return c != 0 ? c : Long.compare(addressA, addressB);
  }

  private int compareKeys(long addressA, long addressB) {
    byte[] a = pages.get((int) (addressA >>> 32));
    int at = (int) addressA;
    byte[] b = pages.get((int) (addressB >>> 32));
    int bt = (int) addressB;
    int aFrom = at + HEADER;
    int bFrom = bt + HEADER;
    return Arrays.compareUnsigned(
        a, aFrom, aFrom + (int) INT.get(a, at), b, bFrom, bFrom + (int) INT.get(b, bt));
  }

  /**
   * Sorts slots {@code [from, to)}: a quicksort partitioning three ways around the median of three
   * (rows equal to the pivot are done at once: many equal keys cost no deeper recursion), recursing
   * into the smaller side only.
   */
  private void quickSort(int from, int to) {
    long[] prefixes = this.prefixes;
    long[] addresses = this.addresses;
    while (to - from > INSERTION_SORT) {
      int mid = (from + to) >>> 1;
      int pivotAt = medianOfThree(from, mid, to - 1);
      long pivotPrefix = prefixes[pivotAt];
      long pivotAddress = addresses[pivotAt];
      // [from, lt) < pivot, [lt, i) == pivot, (gt, to) > pivot
      int lt = from;
      int i = from;
      int gt = to - 1;
      while (i <= gt) {
        int c = compare(prefixes[i], addresses[i], pivotPrefix, pivotAddress);
        if (c < 0) {
          swap(lt++, i++);
        } else if (c > 0) {
          swap(i, gt--);
        } else {
          i++;
        }
      }
      if (lt - from < to - (gt + 1)) {
        quickSort(from, lt);
        from = gt + 1;
      } else {
        quickSort(gt + 1, to);
        to = lt;
      }
    }
    insertionSort(from, to);
  }

  private int medianOfThree(int a, int b, int c) {
    if (compareSlots(a, b) < 0) {
      return compareSlots(b, c) < 0 ? b : compareSlots(a, c) < 0 ? c : a;
    }
    return compareSlots(a, c) < 0 ? a : compareSlots(b, c) < 0 ? c : b;
  }

  private int compareSlots(int i, int j) {
    return compare(prefixes[i], addresses[i], prefixes[j], addresses[j]);
  }

  private void insertionSort(int from, int to) {
    long[] prefixes = this.prefixes;
    long[] addresses = this.addresses;
    for (int i = from + 1; i < to; i++) {
      long prefix = prefixes[i];
      long address = addresses[i];
      int j = i - 1;
      while (j >= from && compare(prefixes[j], addresses[j], prefix, address) > 0) {
        prefixes[j + 1] = prefixes[j];
        addresses[j + 1] = addresses[j];
        j--;
      }
      prefixes[j + 1] = prefix;
      addresses[j + 1] = address;
    }
  }

  private void swap(int i, int j) {
    long p = prefixes[i];
    prefixes[i] = prefixes[j];
    prefixes[j] = p;
    long a = addresses[i];
    addresses[i] = addresses[j];
    addresses[j] = a;
  }
}
