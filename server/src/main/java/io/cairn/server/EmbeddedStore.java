package io.cairn.server;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.TableSpec;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** The in-memory store behind the KV SPI, used by {@code jdbc:cairn:mem:NAME}. Thread-safe. */
public final class EmbeddedStore implements KvStore {
  private final String name;
  private final ConcurrentMap<String, EmbeddedTable> tables = new ConcurrentHashMap<>();

  public EmbeddedStore(String name) {
    this.name = requireNonNull(name, "name is null");
  }

  public String name() {
    return name;
  }

  @Override
  public KvTable createTable(String tableName, TableSpec spec) {
    requireNonNull(tableName, "tableName is null");
    EmbeddedTable table = new EmbeddedTable(tableName);
    if (tables.putIfAbsent(tableName, table) != null) {
      throw new CairnException(
          ErrorCode.TABLE_ALREADY_EXISTS,
          "Table [" + tableName + "] already exists in store [" + name + "]");
    }
    return table;
  }

  @Override
  public Optional<KvTable> table(String tableName) {
    return Optional.ofNullable(tables.get(tableName));
  }

  @Override
  public void dropTable(String tableName) {
    EmbeddedTable table = tables.remove(tableName);
    if (table != null) {
      table.drop();
    }
  }

  @Override
  public void close() {
    for (String tableName : tables.keySet()) {
      dropTable(tableName);
    }
  }
}
