/**
 * Cairn's error model: {@link io.cairn.core.error.CairnException} carries an {@link
 * io.cairn.core.error.ErrorCode} (a persistent numeric code, an SQLState and an {@link
 * io.cairn.core.error.ErrorType} saying whether a retry can help); messages name the problem with
 * expected vs found values in brackets. Every layer throws these, the driver maps them to {@code
 * SQLException}s and the protocol carries them whole. Uses no other package; immutable.
 */
package io.cairn.core.error;
