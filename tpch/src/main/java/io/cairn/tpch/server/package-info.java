/**
 * {@code bin/cairn bench server}: lookups and scans through a Cairn server in a child process over
 * the network, with the server's CPU and memory measured from outside ({@link
 * io.cairn.tpch.server.ServerBenchCommand}, {@link io.cairn.tpch.server.ProcessMeter}).
 */
package io.cairn.tpch.server;
