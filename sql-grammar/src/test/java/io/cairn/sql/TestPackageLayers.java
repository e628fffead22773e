package io.cairn.sql;

import io.cairn.core.testing.PackageLayers;
import org.junit.jupiter.api.Test;

/**
 * sql-grammar's packages form layers, bottom-up: the identifier rules (the root package), the
 * immutable AST records ({@code tree}), then the grammar's parser, ANTLR's generated lexer and
 * parser included, with the AST builder and the statement classifier ({@code grammar}). No cycle
 * between them. Checked on the compiled classes by {@link PackageLayers}; a new package without a
 * place here fails.
 */
class TestPackageLayers {
  private static final PackageLayers LAYERS =
      new PackageLayers()
          .layer("io.cairn.sql")
          .layer("io.cairn.sql.tree", "io.cairn.sql")
          .layer("io.cairn.sql.grammar", "io.cairn.sql", "io.cairn.sql.tree");

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
