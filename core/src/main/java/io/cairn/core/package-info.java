/**
 * The root of core: what every package of Cairn may use and nothing else, today the marker {@link
 * io.cairn.core.SuppressForbidden} that exempts a method from the build's forbidden-API check. Uses
 * no other package.
 */
package io.cairn.core;
