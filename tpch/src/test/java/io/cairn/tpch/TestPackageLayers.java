package io.cairn.tpch;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * tpch's packages form layers, bottom-up: the reports (tables, charts, JSON), the support every
 * command shares ({@code cli}: version, options, scratch directories), the TPC-H loader and the
 * other commands (one package each, the index check among them), and on top the entry point {@code
 * CairnTool} (the root package), which registers every command. No cycle between them. Checked on
 * the compiled classes by {@link PackageLayers}; a new package without a place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.tpch.report")
          .layer("io.cairn.tpch.cli")
          .layer("io.cairn.tpch.load", "io.cairn.tpch.cli")
          // the commands, each in its own package
          .layer(
              "io.cairn.tpch.bench",
              "io.cairn.tpch.cli",
              "io.cairn.tpch.load",
              "io.cairn.tpch.report")
          .layer(
              "io.cairn.tpch.queries",
              "io.cairn.tpch.cli",
              "io.cairn.tpch.load",
              "io.cairn.tpch.report")
          .layer(
              "io.cairn.tpch.footprint",
              "io.cairn.tpch.cli",
              "io.cairn.tpch.load",
              "io.cairn.tpch.report")
          .layer("io.cairn.tpch.cache", "io.cairn.tpch.cli", "io.cairn.tpch.report")
          .layer("io.cairn.tpch.server", "io.cairn.tpch.cli", "io.cairn.tpch.report")
          .layer("io.cairn.tpch.pe", "io.cairn.tpch.cli", "io.cairn.tpch.report")
          .layer("io.cairn.tpch.index", "io.cairn.tpch.cli")
          .layer(
              "io.cairn.tpch",
              "io.cairn.tpch.cli",
              "io.cairn.tpch.bench",
              "io.cairn.tpch.queries",
              "io.cairn.tpch.footprint",
              "io.cairn.tpch.cache",
              "io.cairn.tpch.server",
              "io.cairn.tpch.pe",
              "io.cairn.tpch.index",
              "io.cairn.tpch.load");

  @Test
  void layersListOnlyLowerPackages() {
    LAYERS.checkLayersListOnlyLowerPackages();
  }

  @Test
  void noCycleBetweenPackages() {
    LAYERS.checkNoCycles();
  }

  @Test
  void everyPackageUsesOnlyTheLayersBelowIt() {
    LAYERS.checkLayers();
  }
}
