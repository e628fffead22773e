package io.cairn.hbase;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * hbase's packages: the region servers' side ({@code server}: the observer that runs scan programs
 * next to the data), then the KV SPI over HBase (the root package), which sets the observer on its
 * tables and reads its pages. Checked on the compiled classes by {@link PackageLayers}.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.hbase.server")
          .layer("io.cairn.hbase", "io.cairn.hbase.server");

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
