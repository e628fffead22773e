package io.cairn.tpch.cli;

import picocli.CommandLine;

/**
 * {@code -V} of every command: the version the driver was built as. Here, below the commands, so
 * that the commands naming it as their version provider do not use {@code io.cairn.tpch.CairnTool},
 * which registers them.
 */
public final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"Cairn " + io.cairn.cli.CairnMain.version()};
  }
}
