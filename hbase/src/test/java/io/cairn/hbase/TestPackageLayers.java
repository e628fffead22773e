package io.cairn.hbase;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * hbase's packages: one so far, the KV SPI over HBase (the root package). Checked on the compiled
 * classes by {@link PackageLayers}: a package added without a place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS = new PackageLayers().layer("io.cairn.hbase");

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
