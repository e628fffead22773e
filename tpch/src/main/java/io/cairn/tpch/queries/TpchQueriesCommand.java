package io.cairn.tpch.queries;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code bin/cairn bench tpch}: the LINEITEM suite (being written). */
@Command(name = "tpch", mixinStandardHelpOptions = true, description = "The 22 TPC-H queries.")
public final class TpchQueriesCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("bench tpch is being written");
  }
}
