package io.cairn.jdbc;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class or method of {@code io.cairn.jdbc} that the contract suite does not run on HBase
 * (the hbase module's {@code hbase-contract} execution excludes the tag {@value #TAG}), with the
 * reason: what it needs that Cairn over HBase does not do, or does differently and says so
 * (docs/hbase.md).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(NotOnHBase.TAG)
public @interface NotOnHBase {
  String TAG = "not-on-hbase";

  /** Why the class or method does not run on HBase. */
  String value();
}
