/**
 * The region servers' side of Cairn over HBase: {@link io.cairn.hbase.server.CairnRegionObserver}
 * runs a scan's program over a region's rows ({@link io.cairn.hbase.server.ProgramRegionScanner})
 * and answers pages of result rows ({@link io.cairn.hbase.server.Pages}). Depends on the store's
 * program evaluator and the wire protocol, not on the client side of this module.
 */
package io.cairn.hbase.server;
