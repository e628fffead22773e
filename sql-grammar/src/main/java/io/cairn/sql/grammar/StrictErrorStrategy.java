package io.cairn.sql.grammar;

import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.InputMismatchException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Reports the first error and stops: no single-token insertion or deletion, no resynchronisation.
 * Every report reaches {@link ThrowingErrorListener}, which throws, so nothing is recovered
 * silently; the throws here are a second line of defence. Unlike ANTLR's BailErrorStrategy, the
 * error is reported first, so the message carries the expected tokens.
 */
final class StrictErrorStrategy extends DefaultErrorStrategy {
  @Override
  public void recover(Parser recognizer, RecognitionException e) {
    throw new ParseCancellationException(e);
  }

  @Override
  public Token recoverInline(Parser recognizer) {
    InputMismatchException e = new InputMismatchException(recognizer);
    reportError(recognizer, e);
    throw new ParseCancellationException(e);
  }
}
