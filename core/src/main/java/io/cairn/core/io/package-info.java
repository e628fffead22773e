/**
 * Helpers for resources and files that every module uses: {@link io.cairn.core.io.Closeables}
 * closes several things keeping the first failure, {@link io.cairn.core.io.FileTrees} deletes a
 * directory tree. Uses nothing else of Cairn.
 */
package io.cairn.core.io;
