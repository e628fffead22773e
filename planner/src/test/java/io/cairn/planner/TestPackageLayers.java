package io.cairn.planner;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * planner's packages form layers, bottom-up: the immutable plan records ({@code plan}), then the
 * Calcite front end that builds them (the root package, {@code CairnPlanner} on top). No cycle
 * between them. Checked on the compiled classes by {@link PackageLayers}; a new package without a
 * place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.planner.plan")
          .layer("io.cairn.planner", "io.cairn.planner.plan");

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
