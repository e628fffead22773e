package io.cairn.jdbc;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * The driver's packages form layers, bottom-up: the engine contract ({@code internal.engine}), the
 * client executor ({@code internal.exec}), the JDBC implementation over the contract with the URL
 * and its properties ({@code internal}), the session that runs statements over a database ({@code
 * internal.session}), the two engines ({@code internal.embedded}, {@code internal.remote}), the
 * public driver that picks an engine for a URL ({@code io.cairn.jdbc}), and the command line
 * ({@code io.cairn.cli}). No cycle between them: the executor names no JDBC class, the contract no
 * engine. Checked on the compiled classes by {@link PackageLayers}; a new package without a place
 * here fails.
 */
@NotOnHBase(
    "checks the driver's classes, not a store (the HBase run's class path adds the hbase module's)")
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.jdbc.internal.engine")
          .layer("io.cairn.jdbc.internal.exec.spill")
          .layer(
              "io.cairn.jdbc.internal.exec",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.exec.spill")
          .layer(
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.exec")
          .layer(
              "io.cairn.jdbc.internal.session",
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.exec")
          .layer(
              "io.cairn.jdbc.internal.embedded",
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.exec",
              "io.cairn.jdbc.internal.session")
          .layer(
              "io.cairn.jdbc.internal.remote",
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.exec",
              "io.cairn.jdbc.internal.session")
          .layer(
              "io.cairn.jdbc",
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine",
              "io.cairn.jdbc.internal.embedded",
              "io.cairn.jdbc.internal.remote")
          .layer(
              "io.cairn.cli",
              "io.cairn.jdbc",
              "io.cairn.jdbc.internal",
              "io.cairn.jdbc.internal.engine");

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
