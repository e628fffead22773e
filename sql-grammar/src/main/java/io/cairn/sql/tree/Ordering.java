package io.cairn.sql.tree;

/** Sort order of a primary-key column; DESC columns are stored bit-inverted in the row key. */
public enum Ordering {
  ASC,
  DESC
}
