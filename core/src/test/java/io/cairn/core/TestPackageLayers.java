package io.cairn.core;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * core's packages, the root one and the KV SPI included, form layers: a package uses only the
 * packages listed before it (bottom-up, with what each may use), and there is no cycle between
 * them. Nothing of Cairn outside core is used at all (the module has no Cairn dependency). Checked
 * on the compiled classes by {@link PackageLayers}, so that a new upward reference or a new package
 * without a place here fails in this test rather than in a review.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.core")
          .layer("io.cairn.core.bytes")
          .layer("io.cairn.core.io")
          .layer("io.cairn.core.error")
          .layer("io.cairn.core.type", "io.cairn.core.error")
          .layer("io.cairn.core.memory", "io.cairn.core.error")
          .layer(
              "io.cairn.core.encoding",
              "io.cairn.core.bytes",
              "io.cairn.core.error",
              "io.cairn.core.type")
          .layer(
              "io.cairn.core.expr",
              "io.cairn.core.error",
              "io.cairn.core.type",
              "io.cairn.core.encoding")
          .layer(
              "io.cairn.core.agg",
              "io.cairn.core.bytes",
              "io.cairn.core.error",
              "io.cairn.core.type",
              "io.cairn.core.memory",
              "io.cairn.core.expr")
          // the KV SPI: scan programs carry row layouts, expressions and aggregate calls; index
          // specs carry sort orders
          .layer(
              "io.cairn.kv",
              "io.cairn.core.bytes",
              "io.cairn.core.error",
              "io.cairn.core.type",
              "io.cairn.core.memory",
              "io.cairn.core.encoding",
              "io.cairn.core.expr",
              "io.cairn.core.agg")
          .layer(
              "io.cairn.core.catalog",
              "io.cairn.core.bytes",
              "io.cairn.core.error",
              "io.cairn.core.type",
              "io.cairn.core.encoding",
              "io.cairn.core.expr",
              "io.cairn.kv");

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
