package io.cairn.sql.grammar;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One statement as {@link StatementClassifier} read it. Offsets are character offsets into {@link
 * #text}.
 *
 * @param text the statement's text (for an explained statement, the text after EXPLAIN [PLAN FOR])
 * @param kind what the statement is
 * @param unsupported for {@link Kind#UNSUPPORTED}, its name ("ALTER TABLE", "CREATE VIEW", ...);
 *     empty otherwise
 * @param bodyOffset for {@link Kind#EXPLAIN}, where the explained statement starts; 0 otherwise
 * @param explained for {@link Kind#EXPLAIN}, the explained statement
 * @param statementHint for {@link Kind#DML}, Phoenix's hint comment right after the verb
 * @param hintCommas where a blank between two items of a hint comment (other than the statement
 *     hint) becomes a comma for Calcite's hint syntax (queries and DML only)
 * @param systemNames where an unquoted {@code SYSTEM} followed by a dot starts, which Calcite's
 *     parser reserves and which must be quoted (queries and DML only)
 * @param onDuplicateKey for an UPSERT or INSERT, Phoenix's ON DUPLICATE KEY clause: the first
 *     {@code ON DUPLICATE KEY} outside parentheses (queries and DML only)
 * @param nesting where each level of parentheses is first reached: element {@code d - 1} is the
 *     offset of the first {@code (} that opens level {@code d}; its size is the deepest nesting.
 *     Parentheses in strings, quoted names and comments do not count; a {@code )} without its
 *     {@code (} closes nothing (queries and DML only)
 */
public record ClassifiedStatement(
    String text,
    Kind kind,
    String unsupported,
    int bodyOffset,
    Optional<ClassifiedStatement> explained,
    Optional<StatementHint> statementHint,
    List<Integer> hintCommas,
    List<Integer> systemNames,
    Optional<OnDuplicateKey> onDuplicateKey,
    List<Integer> nesting) {
  /** What a statement is. */
  public enum Kind {
    /** A statement of Cairn's own grammar ({@link CairnSqlParser#parse}). */
    CAIRN_DDL,
    /** A statement this version recognises but cannot run. */
    UNSUPPORTED,
    /** EXPLAIN [PLAN FOR] statement. */
    EXPLAIN,
    /** UPSERT, INSERT, DELETE or UPDATE, for Calcite. */
    DML,
    /** Anything else (SELECT, VALUES, WITH, ...), for Calcite. */
    QUERY
  }

  /**
   * Phoenix's hint on a DML statement ({@code UPSERT /*+ SERIAL *}{@code / INTO t SELECT ...}),
   * which Calcite's grammar has no place for.
   *
   * @param start offset of the comment's {@code /*+}
   * @param end offset after the comment's {@code *}{@code /}
   * @param names the names of its items, arguments dropped ({@code A, B(x y) C} gives A, B, C)
   */
  public record StatementHint(int start, int end, List<String> names) {
    public StatementHint {
      names = List.copyOf(names);
    }
  }

  /**
   * Phoenix's {@code ON DUPLICATE KEY IGNORE} or {@code ON DUPLICATE KEY UPDATE assignments} at the
   * end of an UPSERT or INSERT, which Calcite's grammar lacks. Words are separated by space and
   * comments (not hints).
   *
   * @param start offset of {@code ON}
   * @param action what follows {@code ON DUPLICATE KEY}
   * @param actionStart offset of what follows {@code ON DUPLICATE KEY} past space and comments: the
   *     word UPDATE or IGNORE, or what stands in their place (the text's length at its end)
   * @param actionEnd for {@link Action#UPDATE}, the offset right after the word (where the
   *     assignments start); for {@link Action#IGNORE}, the offset past it and the space and
   *     comments after it (the text's length when nothing else follows); for {@link
   *     Action#MISSING}, {@code actionStart}
   */
  public record OnDuplicateKey(int start, Action action, int actionStart, int actionEnd) {
    public OnDuplicateKey {
      requireNonNull(action, "action is null");
    }
  }

  /** What an ON DUPLICATE KEY clause does. */
  public enum Action {
    UPDATE,
    IGNORE,
    /** Neither UPDATE nor IGNORE follows. */
    MISSING
  }

  public ClassifiedStatement {
    requireNonNull(text, "text is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(unsupported, "unsupported is null");
    requireNonNull(explained, "explained is null");
    requireNonNull(statementHint, "statementHint is null");
    requireNonNull(onDuplicateKey, "onDuplicateKey is null");
    hintCommas = List.copyOf(hintCommas);
    systemNames = List.copyOf(systemNames);
    nesting = List.copyOf(nesting);
  }

  static ClassifiedStatement of(String text, Kind kind) {
    return new ClassifiedStatement(
        text,
        kind,
        "",
        0,
        Optional.empty(),
        Optional.empty(),
        List.of(),
        List.of(),
        Optional.empty(),
        List.of());
  }

  static ClassifiedStatement unsupported(String text, String name) {
    return new ClassifiedStatement(
        text,
        Kind.UNSUPPORTED,
        name,
        0,
        Optional.empty(),
        Optional.empty(),
        List.of(),
        List.of(),
        Optional.empty(),
        List.of());
  }

  static ClassifiedStatement explain(String text, int bodyOffset, ClassifiedStatement explained) {
    return new ClassifiedStatement(
        text,
        Kind.EXPLAIN,
        "",
        bodyOffset,
        Optional.of(explained),
        Optional.empty(),
        List.of(),
        List.of(),
        Optional.empty(),
        List.of());
  }

  /** Whether parentheses nest deeper than {@code maxDepth} levels before offset {@code limit}. */
  public boolean nestsDeeperThan(int maxDepth, int limit) {
    return nesting.size() > maxDepth && nesting.get(maxDepth) < limit;
  }

  /**
   * The text Calcite parses: the statement hint replaced by blanks, hint items separated by commas
   * and SYSTEM quoted, all before {@code limit} (the text from there on is left as it is: the
   * caller blanked it). Error positions before the first SYSTEM stay those of {@link #text}; each
   * quoted SYSTEM moves the positions after it right by two columns.
   */
  public String rewritten(String limitedText, int limit) {
    if (statementHint.isEmpty() && hintCommas.isEmpty() && systemNames.isEmpty()) {
      return limitedText; // nothing to rewrite: no pass over the text
    }
    StringBuilder out = new StringBuilder(limitedText.length() + 2 * systemNames.size());
    int commaIndex = 0;
    int systemIndex = 0;
    int hintStart = statementHint.map(StatementHint::start).orElse(-1);
    int hintEnd = statementHint.map(StatementHint::end).orElse(-1);
    for (int i = 0; i < limitedText.length(); i++) {
      char c = limitedText.charAt(i);
      if (i < limit) {
        if (i >= hintStart && i < hintEnd) {
          out.append(' ');
          continue;
        }
        if (commaIndex < hintCommas.size() && hintCommas.get(commaIndex) == i) {
          commaIndex++;
          out.append(',');
          continue;
        }
        if (systemIndex < systemNames.size() && systemNames.get(systemIndex) == i) {
          systemIndex++;
          out.append("\"SYSTEM\"");
          i += "SYSTEM".length() - 1;
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }
}
