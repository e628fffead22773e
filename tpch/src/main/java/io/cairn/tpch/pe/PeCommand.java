package io.cairn.tpch.pe;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code bin/cairn pe}: the LINEITEM suite (being written). */
@Command(
    name = "pe",
    mixinStandardHelpOptions = true,
    description = "The KV performance evaluation tool.")
public final class PeCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("pe is being written");
  }
}
