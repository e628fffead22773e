package io.cairn.tpch.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code bin/cairn bench lineitem}: the LINEITEM suite (being written). */
@Command(name = "lineitem", mixinStandardHelpOptions = true, description = "The LINEITEM suite.")
public final class LineitemCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("bench lineitem is being written");
  }
}
