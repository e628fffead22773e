package io.cairn.jmh;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * jmh's packages: the benchmarks (the root package), then the classes JMH's annotation processor
 * generates for them ({@code jmh_generated}), which use the benchmarks and nothing else. No cycle
 * between them. Checked on the compiled classes by {@link PackageLayers}.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers().layer("io.cairn.jmh").layer("io.cairn.jmh.jmh_generated", "io.cairn.jmh");

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
