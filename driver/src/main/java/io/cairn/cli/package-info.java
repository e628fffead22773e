/**
 * Command-line entry points that bin/cairn starts. Only classes here may print to standard output;
 * they return exit codes to the launcher instead of exiting the JVM.
 */
package io.cairn.cli;
