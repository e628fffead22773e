package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a KV table is created: its validated table options (upper-case names, canonical values, see
 * {@link io.cairn.core.catalog.TableOptions}) and the row keys at which it starts split into
 * regions (strictly increasing, none empty).
 */
public record TableSpec(Map<String, String> options, List<Bytes> splitPoints) {
  public static final TableSpec DEFAULT = new TableSpec(Map.of(), List.of());

  public TableSpec {
    options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
    splitPoints = List.copyOf(requireNonNull(splitPoints, "splitPoints is null"));
    for (int i = 0; i < splitPoints.size(); i++) {
      if (splitPoints.get(i).isEmpty()) {
        throw new IllegalArgumentException("Split point " + (i + 1) + " is empty");
      }
      if (i > 0 && splitPoints.get(i - 1).compareTo(splitPoints.get(i)) >= 0) {
        throw new IllegalArgumentException(
            "Split points must be strictly increasing: point "
                + (i + 1)
                + " "
                + splitPoints.get(i)
                + " is not above "
                + splitPoints.get(i - 1));
      }
    }
  }
}
