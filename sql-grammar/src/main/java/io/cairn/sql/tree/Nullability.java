package io.cairn.sql.tree;

/** What a column definition says about NULL. */
public enum Nullability {
  /** Neither {@code NULL} nor {@code NOT NULL} was written. */
  UNSPECIFIED,
  NULL,
  NOT_NULL
}
