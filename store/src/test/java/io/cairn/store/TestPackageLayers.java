package io.cairn.store;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * The store's packages follow the data path bottom-up, and the root package (the store and its
 * tables, their configuration and system views) sits on top of them all: a package uses only the
 * packages listed before it with what it may use, and there is no cycle between them. Checked on
 * the compiled classes by {@link PackageLayers}, so that a new upward reference or a new package
 * without a place here fails in this test rather than in a review.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.store.io")
          .layer("io.cairn.store.cache", "io.cairn.store.io")
          .layer("io.cairn.store.cell")
          .layer("io.cairn.store.wal", "io.cairn.store.io")
          .layer("io.cairn.store.memstore", "io.cairn.store.cell")
          .layer(
              "io.cairn.store.file",
              "io.cairn.store.io",
              "io.cairn.store.cell",
              "io.cairn.store.cache")
          .layer("io.cairn.store.scan", "io.cairn.store.cell", "io.cairn.store.memstore")
          .layer(
              "io.cairn.store.region",
              "io.cairn.store.io",
              "io.cairn.store.cell",
              "io.cairn.store.memstore",
              "io.cairn.store.cache",
              "io.cairn.store.file",
              "io.cairn.store.scan")
          .layer(
              "io.cairn.store.coprocessor",
              "io.cairn.store.cell",
              "io.cairn.store.memstore",
              "io.cairn.store.scan")
          // statistics of regions: collected, merged, persisted
          .layer(
              "io.cairn.store.stats",
              "io.cairn.store.cell",
              "io.cairn.store.memstore",
              "io.cairn.store.file",
              "io.cairn.store.region")
          // a table's regions and manifest, and the jobs that change them
          .layer(
              "io.cairn.store.table",
              "io.cairn.store.io",
              "io.cairn.store.cell",
              "io.cairn.store.wal",
              "io.cairn.store.memstore",
              "io.cairn.store.file",
              "io.cairn.store.scan",
              "io.cairn.store.region",
              "io.cairn.store.stats")
          // local indexes: their entries' upkeep, builds, checks and reads, over regions
          .layer(
              "io.cairn.store.index",
              "io.cairn.store.cell",
              "io.cairn.store.memstore",
              "io.cairn.store.file",
              "io.cairn.store.scan",
              "io.cairn.store.region",
              "io.cairn.store.stats",
              "io.cairn.store.table")
          // the store and its tables: every package below
          .layer(
              "io.cairn.store",
              "io.cairn.store.io",
              "io.cairn.store.cache",
              "io.cairn.store.cell",
              "io.cairn.store.wal",
              "io.cairn.store.memstore",
              "io.cairn.store.file",
              "io.cairn.store.scan",
              "io.cairn.store.region",
              "io.cairn.store.coprocessor",
              "io.cairn.store.stats",
              "io.cairn.store.table",
              "io.cairn.store.index");

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
