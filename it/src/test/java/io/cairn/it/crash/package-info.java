/**
 * Crash and corruption tests of the durable store ({@code jdbc:cairn:file:DIR}) across real
 * processes: {@link io.cairn.it.crash.TestCrashRecovery} kills a writing child JVM with SIGKILL and
 * checks every acknowledged transaction after recovery; {@link
 * io.cairn.it.crash.TestCorruptionHandling} damages each kind of store file and requires either the
 * exact answer or a clear DATA_CORRUPTED error. See docs/testing.md.
 */
package io.cairn.it.crash;
