package io.cairn.core.type;

/** Order of a primary-key column. Ids are persistent. */
public enum SortOrder {
  ASC(0),
  DESC(1);

  private final int id;

  SortOrder(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  public static SortOrder fromId(int id) {
    return switch (id) {
      case 0 -> ASC;
      case 1 -> DESC;
      default ->
          throw io.cairn.core.error.CairnException.internal("Unknown sort order id [" + id + "]");
    };
  }
}
