package io.cairn.jdbc;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of {@code io.cairn.jdbc} that the contract suite does not run against a server
 * (driver/pom.xml's {@code remote-contract} execution excludes the tag {@value #TAG}), with the
 * reason. Every other test class of this package runs twice: embedded and against a server.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(EmbeddedOnly.TAG)
public @interface EmbeddedOnly {
  String TAG = "embedded-only";

  /** Why the class only makes sense embedded. */
  String value();
}
