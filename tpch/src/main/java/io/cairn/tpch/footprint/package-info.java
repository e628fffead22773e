/**
 * {@code bin/cairn bench footprint}: bytes on disk for every data block encoding and compression,
 * for a seed table and TPC-H LINEITEM, each loaded once into a durable store and rewritten by ALTER
 * TABLE ... SET and a major compaction per setting, beside HBase's figures ({@link
 * io.cairn.tpch.footprint.FootprintCommand}).
 */
package io.cairn.tpch.footprint;
