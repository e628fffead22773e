package io.cairn.sql.grammar;

import static java.util.Objects.requireNonNull;

import io.cairn.sql.grammar.ClassifiedStatement.Action;
import io.cairn.sql.grammar.ClassifiedStatement.Kind;
import io.cairn.sql.grammar.ClassifiedStatement.OnDuplicateKey;
import io.cairn.sql.grammar.ClassifiedStatement.StatementHint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * The front door for SQL text: lexes a statement once with Cairn's ANTLR lexer and classifies it
 * ({@link ClassifiedStatement}): Cairn's own DDL and dialect statements (parsed by {@link
 * CairnSqlParser}), statements recognised but not supported, EXPLAIN with the offset of the
 * statement it explains, DML with Phoenix's statement hint, and queries; for the text that goes to
 * Calcite, it also finds where hint items need commas, which {@code SYSTEM} names need quotes,
 * Phoenix's {@code ON DUPLICATE KEY} clause of an UPSERT and how deeply parentheses nest, all in
 * one walk over the tokens.
 *
 * <p>Comments and quotes are the lexer's: a {@code /*+ ... *}{@code /} hint is one bracketed
 * comment token, never nested (the first {@code *}{@code /} ends it, as in Calcite). An
 * unterminated string, quoted identifier or comment runs to the end of the text for every decision
 * but the grammar's own (whose parser reports it), except an unterminated hint, which ends leading
 * words. Words and comments end where Calcite's lexer ends them too: {@code $} continues a name
 * ({@code EXPLAIN$X} is a name, not EXPLAIN), and a {@code --} comment ends at a carriage return as
 * at a line feed (the hand-written scans this replaced ended words at {@code $} and {@code --}
 * comments at line feeds only).
 */
public final class StatementClassifier {
  /**
   * The leading keyword sequences of the statements the grammar owns. Adding a statement adds its
   * prefix here; UPDATE STATISTICS and ALTER TABLE name SET are decided apart.
   */
  private static final List<List<Integer>> OWNED_PREFIXES =
      List.of(
          List.of(CairnSqlBaseLexer.CREATE, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.DROP, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.FLUSH, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.COMPACT, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.SPLIT, CairnSqlBaseLexer.TABLE),
          List.of(CairnSqlBaseLexer.MAJOR_COMPACT, CairnSqlBaseLexer.TABLE),
          // local indexes: every form is the grammar's, so that the planner refuses what it does
          // not support (UNIQUE, ALTER INDEX ... DISABLE, ...) by name
          List.of(CairnSqlBaseLexer.CREATE, CairnSqlBaseLexer.INDEX),
          List.of(CairnSqlBaseLexer.CREATE, CairnSqlBaseLexer.LOCAL, CairnSqlBaseLexer.INDEX),
          List.of(CairnSqlBaseLexer.CREATE, CairnSqlBaseLexer.UNIQUE, CairnSqlBaseLexer.INDEX),
          List.of(
              CairnSqlBaseLexer.CREATE,
              CairnSqlBaseLexer.UNIQUE,
              CairnSqlBaseLexer.LOCAL,
              CairnSqlBaseLexer.INDEX),
          List.of(CairnSqlBaseLexer.DROP, CairnSqlBaseLexer.INDEX),
          List.of(CairnSqlBaseLexer.ALTER, CairnSqlBaseLexer.INDEX),
          List.of(CairnSqlBaseLexer.CHECK, CairnSqlBaseLexer.INDEX));

  /** Longest owned form: ALTER TABLE schema . name SET. */
  private static final int LONGEST_PREFIX = 6;

  /** Keywords that may be unquoted names (the grammar's nonReserved rule). */
  private static final IntervalSet NON_RESERVED =
      CairnSqlBaseParser._ATN.nextTokens(
          CairnSqlBaseParser._ATN.ruleToStartState[CairnSqlBaseParser.RULE_nonReserved]);

  /** Statements this version recognises but cannot run, by their leading words. */
  private static final List<List<String>> UNSUPPORTED =
      List.of(
          List.of("ALTER", "TABLE"),
          List.of("CREATE", "VIEW"),
          List.of("CREATE", "SCHEMA"),
          List.of("CREATE", "SEQUENCE"),
          List.of("CREATE", "FUNCTION"),
          List.of("DROP", "VIEW"),
          List.of("DROP", "SCHEMA"),
          List.of("DROP", "SEQUENCE"),
          List.of("TRUNCATE", "TABLE"));

  private static final List<String> DML_VERBS = List.of("UPSERT", "INSERT", "DELETE", "UPDATE");

  private final String text;
  private final List<Token> tokens;

  /**
   * Index of the first token that opens an unterminated string, quoted identifier or comment (the
   * rest of the text belongs to it), or the number of tokens.
   */
  private final int cut;

  private StatementClassifier(String text, List<Token> tokens) {
    this.text = text;
    this.tokens = tokens;
    this.cut = findCut();
  }

  /** Classifies one statement (without its terminating semicolons). */
  public static ClassifiedStatement classify(String sql) {
    requireNonNull(sql, "sql is null");
    return new StatementClassifier(sql, lex(sql)).classifyFrom(0);
  }

  static List<Token> lex(String sql) {
    CairnSqlBaseLexer lexer = new CairnSqlBaseLexer(CharStreams.fromString(sql));
    // UNRECOGNIZED matches any character, so the lexer has no errors to report.
    lexer.removeErrorListeners();
    List<Token> tokens = new ArrayList<>();
    for (Token token = lexer.nextToken(); token.getType() != Token.EOF; token = lexer.nextToken()) {
      tokens.add(token);
    }
    return tokens;
  }

  /** The statement starting at token {@code first}, with offsets relative to that token's start. */
  private ClassifiedStatement classifyFrom(int first) {
    int base = offset(first);
    String statement = text.substring(base);
    if (ownedByGrammar(first)) {
      return ClassifiedStatement.of(statement, Kind.CAIRN_DDL);
    }
    String unsupported = unsupported(first);
    if (unsupported != null) {
      return ClassifiedStatement.unsupported(statement, unsupported);
    }
    int body = explainedBody(first);
    if (body >= 0) {
      ClassifiedStatement explained = classifyFrom(body);
      return ClassifiedStatement.explain(statement, offset(body) - base, explained);
    }
    int verb = skipSpaceAndComments(first);
    boolean dml = verb < cut && DML_VERBS.stream().anyMatch(v -> isWord(tokens.get(verb), v));
    // Phoenix's statement hint follows a verb that only space precedes
    StatementHint hint = dml && skipSpace(first) == verb ? statementHint(verb, base) : null;
    boolean upsert = dml && (isWordAt(verb, base, "UPSERT") || isWordAt(verb, base, "INSERT"));
    List<Integer> commas = new ArrayList<>();
    List<Integer> systemNames = new ArrayList<>();
    List<Integer> nesting = new ArrayList<>();
    int depth = 0;
    OnDuplicateKey onDuplicateKey = null;
    for (int i = first; i < cut; i++) {
      Token token = tokens.get(i);
      int type = token.getType();
      if (type == CairnSqlBaseLexer.LPAREN) {
        if (++depth > nesting.size()) {
          nesting.add(token.getStartIndex() - base);
        }
      } else if (type == CairnSqlBaseLexer.RPAREN) {
        depth = Math.max(0, depth - 1);
      } else if (isHintComment(token)) {
        if (hint == null || token.getStartIndex() - base != hint.start()) {
          hintCommas(token, base, commas);
        }
      } else if (isSystemSchema(i)) {
        systemNames.add(token.getStartIndex() - base);
      } else if (upsert && onDuplicateKey == null && depth == 0 && i > verb) {
        onDuplicateKey = onDuplicateKeyAt(i, base);
      }
    }
    return new ClassifiedStatement(
        statement,
        dml ? Kind.DML : Kind.QUERY,
        "",
        0,
        Optional.empty(),
        Optional.ofNullable(hint),
        commas,
        systemNames,
        Optional.ofNullable(onDuplicateKey),
        nesting);
  }

  // ---- Phoenix's ON DUPLICATE KEY clause (words as a hand-written scan reads them: see isWordAt)

  /** The clause when token {@code i} is the ON of {@code ON DUPLICATE KEY}, else null. */
  private OnDuplicateKey onDuplicateKeyAt(int i, int base) {
    if (!isWordAt(i, base, "ON")) {
      return null;
    }
    int duplicate = skipSpaceAndComments(i + 1);
    if (!isWordAt(duplicate, base, "DUPLICATE")) {
      return null;
    }
    int key = skipSpaceAndComments(duplicate + 1);
    if (!isWordAt(key, base, "KEY")) {
      return null;
    }
    int start = offset(i) - base;
    int action = skipSpaceAndComments(key + 1);
    int actionStart = offset(action) - base;
    if (isWordAt(action, base, "IGNORE")) {
      int end = offset(skipSpaceAndComments(action + 1)) - base;
      return new OnDuplicateKey(start, Action.IGNORE, actionStart, end);
    }
    if (isWordAt(action, base, "UPDATE")) {
      int end = tokens.get(action).getStopIndex() + 1 - base;
      return new OnDuplicateKey(start, Action.UPDATE, actionStart, end);
    }
    return new OnDuplicateKey(start, Action.MISSING, actionStart, actionStart);
  }

  /**
   * Whether token {@code i} (before the cut) is the word {@code word} (any case, as {@link
   * String#regionMatches(boolean, int, String, int, int)} compares) standing alone: neither the
   * character before it (within the statement starting at {@code base}) nor the one after it
   * continues a word (a letter, digit, {@code _} or {@code $} in Java's sense, which is wider than
   * the lexer's: {@code 1ON} is no ON).
   */
  private boolean isWordAt(int i, int base, String word) {
    if (i >= cut) {
      return false;
    }
    Token token = tokens.get(i);
    int start = token.getStartIndex();
    int end = token.getStopIndex() + 1;
    return end - start == word.length()
        && text.regionMatches(true, start, word, 0, word.length())
        && (start == base || !isWordPart(text.charAt(start - 1)))
        && (end == text.length() || !isWordPart(text.charAt(end)));
  }

  private static boolean isWordPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  // ---- the grammar's statements (on the raw tokens: its parser reports unterminated ones)

  private boolean ownedByGrammar(int first) {
    List<Integer> leading = new ArrayList<>(LONGEST_PREFIX);
    int i = first;
    for (; i < tokens.size() && leading.size() < LONGEST_PREFIX; i++) {
      if (tokens.get(i).getChannel() == Token.DEFAULT_CHANNEL) {
        leading.add(tokens.get(i).getType());
      }
    }
    for (List<Integer> prefix : OWNED_PREFIXES) {
      if (leading.size() >= prefix.size() && leading.subList(0, prefix.size()).equals(prefix)) {
        return true;
      }
    }
    if (leading.size() >= 2
        && leading.get(0) == CairnSqlBaseLexer.UPDATE
        && leading.get(1) == CairnSqlBaseLexer.STATISTICS) {
      // UPDATE STATISTICS [[AS] alias] SET ... updates a table named STATISTICS: Calcite's
      return !leading.contains(CairnSqlBaseLexer.SET) && !hasSet(i);
    }
    return isAlterTableSet(leading);
  }

  private boolean hasSet(int from) {
    for (int i = from; i < tokens.size(); i++) {
      if (tokens.get(i).getType() == CairnSqlBaseLexer.SET) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the leading tokens read {@code ALTER TABLE name SET} or {@code ... schema.name SET}.
   */
  private static boolean isAlterTableSet(List<Integer> leading) {
    if (leading.size() < 4
        || leading.get(0) != CairnSqlBaseLexer.ALTER
        || leading.get(1) != CairnSqlBaseLexer.TABLE
        || !isName(leading.get(2))) {
      return false;
    }
    if (leading.get(3) == CairnSqlBaseLexer.SET) {
      return true;
    }
    return leading.size() >= 6
        && leading.get(3) == CairnSqlBaseLexer.DOT
        && isName(leading.get(4))
        && leading.get(5) == CairnSqlBaseLexer.SET;
  }

  private static boolean isName(int tokenType) {
    return tokenType == CairnSqlBaseLexer.IDENTIFIER
        || tokenType == CairnSqlBaseLexer.QUOTED_IDENTIFIER
        || NON_RESERVED.contains(tokenType);
  }

  // ---- leading words (comments other than hints are skipped; a hint ends the leading words)

  /** The name of a statement this version recognises but cannot run, or null. */
  private String unsupported(int first) {
    for (List<String> words : UNSUPPORTED) {
      if (leadingWords(first, words) >= 0) {
        return String.join(" ", words);
      }
    }
    return null;
  }

  /**
   * The token after {@code words} read from {@code first} on, skipping space and comments (not
   * hints) before each; -1 when the text does not start with them.
   */
  private int leadingWords(int first, List<String> words) {
    int i = skipSpaceAndComments(first);
    for (String word : words) {
      if (i >= cut || !isWord(tokens.get(i), word)) {
        return -1;
      }
      i = skipSpaceAndComments(i + 1);
    }
    return i;
  }

  /** The first token of the statement after EXPLAIN [PLAN FOR], or -1 when it is no EXPLAIN. */
  private int explainedBody(int first) {
    int i = leadingWords(first, List.of("EXPLAIN"));
    if (i < 0) {
      return -1;
    }
    int forBody = leadingWords(i, List.of("PLAN", "FOR"));
    return forBody >= 0 ? forBody : i;
  }

  /** Phoenix's hint right after a DML verb ({@code DELETE /*+ NO_CACHE *}{@code / FROM t}). */
  private StatementHint statementHint(int verb, int base) {
    int i = skipSpace(verb + 1);
    if (i >= cut || !isHintComment(tokens.get(i))) {
      return null;
    }
    Token comment = tokens.get(i);
    String body = comment.getText().substring(3, comment.getText().length() - 2);
    return new StatementHint(
        comment.getStartIndex() - base, comment.getStopIndex() + 1 - base, hintNames(body));
  }

  private int skipSpace(int from) {
    int i = from;
    while (i < cut && isSpace(tokens.get(i))) {
      i++;
    }
    return i;
  }

  private int skipSpaceAndComments(int from) {
    int i = from;
    while (i < cut) {
      Token token = tokens.get(i);
      boolean comment =
          token.getType() == CairnSqlBaseLexer.SIMPLE_COMMENT
              || (token.getType() == CairnSqlBaseLexer.BRACKETED_COMMENT && !isHintComment(token));
      if (!comment && !isSpace(token)) {
        break;
      }
      i++;
    }
    if (i == cut
        && i < tokens.size()
        && tokens.get(i).getType() == CairnSqlBaseLexer.SLASH
        && !text.startsWith("/*+", tokens.get(i).getStartIndex())) {
      return tokens.size(); // an unterminated comment runs to the end
    }
    return i;
  }

  /** The character offset of token {@code i}, the end of the text past the last. */
  private int offset(int i) {
    return i < tokens.size() ? tokens.get(i).getStartIndex() : text.length();
  }

  // ---- SYSTEM.name

  /**
   * Whether token {@code i} is an unquoted {@code SYSTEM} (any case) followed by a dot, with only
   * space between: Phoenix's spelling of the system tables and views, which Calcite's parser
   * reserves as a keyword. A SYSTEM glued to a character that continues a Java name ({@code
   * $SYSTEM}) is part of a longer name.
   */
  private boolean isSystemSchema(int i) {
    Token token = tokens.get(i);
    if (token.getType() != CairnSqlBaseLexer.IDENTIFIER
        || !token.getText().equalsIgnoreCase("SYSTEM")) {
      return false;
    }
    if (i > 0) {
      Token before = tokens.get(i - 1);
      if (before.getType() == CairnSqlBaseLexer.UNRECOGNIZED
          && Character.isJavaIdentifierPart(before.getText().charAt(0))
          && !Character.isWhitespace(before.getText().charAt(0))) {
        return false;
      }
    }
    int next = skipSpace(i + 1);
    // a dot, or a number that starts with one (SYSTEM.1 lexes as SYSTEM and .1)
    return next < cut && tokens.get(next).getText().startsWith(".");
  }

  // ---- hint bodies: items split by a small scanner inside the one comment token

  /** The names of the items of a hint body: {@code A, B(x y) C} gives A, B, C. */
  static List<String> hintNames(String body) {
    List<String> names = new ArrayList<>();
    int depth = 0;
    int i = 0;
    while (i < body.length()) {
      char c = body.charAt(i);
      if (c == '(') {
        depth++;
        i++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
        i++;
      } else if (c == '\'' || c == '"') {
        i = skipQuoted(body, i);
      } else if (depth == 0 && (Character.isLetter(c) || c == '_')) {
        int start = i;
        while (i < body.length()
            && (Character.isLetterOrDigit(body.charAt(i)) || body.charAt(i) == '_')) {
          i++;
        }
        names.add(body.substring(start, i));
      } else {
        i++;
      }
    }
    return names;
  }

  /**
   * Where Phoenix's hint items, separated by spaces ({@code /*+ INDEX(T IDX) NO_CACHE *}{@code /}),
   * need commas for Calcite's hint syntax: the first blank between two items.
   */
  private void hintCommas(Token comment, int base, List<Integer> commas) {
    int from = comment.getStartIndex() + 3;
    int end = comment.getStopIndex() - 1; // the '*' of "*/"
    boolean afterItem = false;
    int blank = -1;
    for (int i = from; i < end; i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        if (afterItem && blank < 0) {
          blank = i;
        }
        continue;
      }
      boolean itemStart = Character.isLetterOrDigit(c) || c == '_' || c == '"' || c == '\'';
      if (itemStart && blank >= 0) {
        commas.add(blank - base);
      }
      blank = -1;
      if (c == '"' || c == '\'') {
        i = Math.min(skipQuoted(text, i), end) - 1;
        afterItem = true;
      } else {
        afterItem = itemStart || c == ')';
        while (itemStart
            && i + 1 < end
            && (Character.isLetterOrDigit(text.charAt(i + 1))
                || text.charAt(i + 1) == '_'
                || text.charAt(i + 1) == '.')) {
          i++;
        }
      }
    }
  }

  /**
   * The index after the quoted text starting at {@code start} (a string, a quoted name; doubled
   * quotes escape), or the text's length when it is not closed.
   */
  private static int skipQuoted(String text, int start) {
    char quote = text.charAt(start);
    int i = start + 1;
    while (i < text.length()) {
      if (text.charAt(i) == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return text.length();
  }

  // ---- tokens

  private int findCut() {
    for (int i = 0; i < tokens.size(); i++) {
      Token token = tokens.get(i);
      int type = token.getType();
      if (type == CairnSqlBaseLexer.UNRECOGNIZED
          && (token.getText().equals("'") || token.getText().equals("\""))) {
        return i;
      }
      int after = token.getStopIndex() + 1;
      if (type == CairnSqlBaseLexer.SLASH && after < text.length() && text.charAt(after) == '*') {
        return i; // an unterminated comment: a closed one is a single BRACKETED_COMMENT token
      }
    }
    return tokens.size();
  }

  private static boolean isHintComment(Token token) {
    return token.getType() == CairnSqlBaseLexer.BRACKETED_COMMENT
        && token.getText().startsWith("/*+");
  }

  /** White space: the lexer's, and the other characters Java counts as white space. */
  private static boolean isSpace(Token token) {
    return token.getType() == CairnSqlBaseLexer.WS
        || (token.getType() == CairnSqlBaseLexer.UNRECOGNIZED
            && Character.isWhitespace(token.getText().charAt(0)));
  }

  /** Whether {@code token} is the word {@code word} (any case): a keyword or unquoted name. */
  private static boolean isWord(Token token, String word) {
    String t = token.getText();
    return t.length() == word.length()
        && t.toUpperCase(Locale.ROOT).equals(word)
        && Character.isLetter(t.charAt(0));
  }
}
