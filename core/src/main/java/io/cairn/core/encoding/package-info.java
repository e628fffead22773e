/**
 * Row codecs: how a table row becomes one KV cell (row key + value) and back. Specified byte by
 * byte here and in docs/format-row.md.
 *
 * <h2>Row key</h2>
 *
 * One component per primary-key column, in key order, each self-delimiting and prefix-free, so
 * unsigned byte order of keys equals SQL order of key tuples and the encoding of the first n key
 * values is a prefix of every matching key. ASC component: {@code 00} for NULL (first), else {@code
 * 01} followed by the value bytes. DESC: every bit of the ASC component inverted (NULL = {@code
 * FF}, last).
 *
 * <ul>
 *   <li>BOOLEAN: {@code 00}/{@code 01}. TINYINT/SMALLINT/INTEGER/BIGINT: 1/2/4/8 bytes big-endian,
 *       sign bit flipped.
 *   <li>FLOAT/DOUBLE: IEEE bits of the value (-0.0 as 0.0, NaN canonical); negative: all bits
 *       inverted, else sign bit flipped. NaN is greatest.
 *   <li>DECIMAL: trailing zeros stripped (1.0 and 1.00 encode equally). Zero: {@code 20}. Positive:
 *       {@code 30}, exponent E (value = 0.d1d2... x 10^E, d1 != 0) as a flipped 4-byte int, digit
 *       pairs p (0..99, a lone last digit padded with 0) as byte p+2, terminator {@code 01}.
 *       Negative: {@code 10} then the absolute value's exponent, pairs and terminator,
 *       bit-inverted.
 *   <li>CHAR/VARCHAR: UTF-8 with {@code 00} written as {@code 00 FF}, terminated by {@code 00 01}.
 *       VARBINARY: the same escaping of the raw bytes.
 *   <li>DATE: epoch day as a flipped 4-byte int. TIME: nano of day as a flipped 8-byte long.
 *       TIMESTAMP: epoch second (zone-less, read as UTC) as a flipped 8-byte long + 4-byte nano.
 *   <li>INTERVAL_* and NULL cannot be key columns (INVALID_TABLE_DEFINITION).
 *   <li>Tables without a primary key: the key is the hidden row id, 8 bytes, sign bit flipped.
 * </ul>
 *
 * <h2>Value cell (format version 1)</h2>
 *
 * <pre>
 * u8       format version (1)
 * varint   schema version of the writing layout
 * varint   n = number of entries
 * varint*n column ids ascending, delta-coded
 * bytes    null bitmap, ceil(n/8) bytes, bit i%8 of byte i/8 = entry i is NULL
 * u8       w = offset width: 1, 2 or 4
 * w*n      big-endian end offset of each entry within the data section
 * data     entry bytes: fixed-width types at natural width (big-endian), DECIMAL as zig-zag varint
 *          scale + unscaled two's complement, strings as plain UTF-8, VARBINARY raw, DATE 4-byte
 *          epoch day, TIME 8-byte nano of day, TIMESTAMP 8-byte epoch second + 4-byte nano,
 *          intervals 8 bytes
 * </pre>
 *
 * Entries are addressed by column id: a layout column the cell lacks decodes as NULL, an entry the
 * layout lacks is ignored, so ALTER TABLE ADD/DROP COLUMN needs no rewrite.
 *
 * <p>{@link io.cairn.core.encoding.RowCodec} encodes and decodes whole rows; {@link
 * io.cairn.core.encoding.RowReader} reads single columns of a row in place, without allocating, for
 * scans.
 */
package io.cairn.core.encoding;
