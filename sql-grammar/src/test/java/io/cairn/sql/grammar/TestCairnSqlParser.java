package io.cairn.sql.grammar;

import static io.cairn.sql.tree.TableOption.ValueKind.BOOLEAN;
import static io.cairn.sql.tree.TableOption.ValueKind.IDENTIFIER;
import static io.cairn.sql.tree.TableOption.ValueKind.NUMBER;
import static io.cairn.sql.tree.TableOption.ValueKind.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.sql.tree.AlterIndex;
import io.cairn.sql.tree.AlterTableSet;
import io.cairn.sql.tree.CheckIndex;
import io.cairn.sql.tree.ColumnDefinition;
import io.cairn.sql.tree.CompactTable;
import io.cairn.sql.tree.CreateIndex;
import io.cairn.sql.tree.CreateTable;
import io.cairn.sql.tree.DropIndex;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.FlushTable;
import io.cairn.sql.tree.IndexPart;
import io.cairn.sql.tree.KeyPart;
import io.cairn.sql.tree.Nullability;
import io.cairn.sql.tree.Ordering;
import io.cairn.sql.tree.PrimaryKey;
import io.cairn.sql.tree.QualifiedName;
import io.cairn.sql.tree.Statement;
import io.cairn.sql.tree.TableOption;
import io.cairn.sql.tree.TypeSpec;
import io.cairn.sql.tree.UpdateStatistics;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestCairnSqlParser {
  @Test
  void createTableWithTableLevelPrimaryKey() {
    Statement statement =
        CairnSqlParser.parse(
            "CREATE TABLE IF NOT EXISTS tpch.lineitem ("
                + " l_orderkey BIGINT NOT NULL,"
                + " l_linenumber INTEGER NOT NULL,"
                + " l_comment VARCHAR(44),"
                + " CONSTRAINT pk PRIMARY KEY (l_orderkey, l_linenumber DESC))"
                + " SALT_BUCKETS=4, DATA_BLOCK_ENCODING='FAST_DIFF', COMPRESSION=ZSTD,"
                + " DURABILITY=SYNC, TTL=86400"
                + " SPLIT ON (100, 200)");

    assertThat(statement)
        .isEqualTo(
            new CreateTable(
                QualifiedName.of("TPCH", "LINEITEM"),
                true,
                List.of(
                    column("L_ORDERKEY", TypeSpec.of("BIGINT"), Nullability.NOT_NULL),
                    column("L_LINENUMBER", TypeSpec.of("INTEGER"), Nullability.NOT_NULL),
                    column("L_COMMENT", TypeSpec.of("VARCHAR", 44), Nullability.UNSPECIFIED)),
                Optional.of(
                    new PrimaryKey(
                        Optional.of("PK"),
                        List.of(
                            new KeyPart("L_ORDERKEY", Ordering.ASC),
                            new KeyPart("L_LINENUMBER", Ordering.DESC)))),
                List.of(
                    new TableOption("SALT_BUCKETS", "4", NUMBER),
                    new TableOption("DATA_BLOCK_ENCODING", "FAST_DIFF", STRING),
                    new TableOption("COMPRESSION", "ZSTD", IDENTIFIER),
                    new TableOption("DURABILITY", "SYNC", IDENTIFIER),
                    new TableOption("TTL", "86400", NUMBER)),
                List.of("100", "200")));
  }

  @Test
  void createTableMinimal() {
    assertThat(CairnSqlParser.parse("create table t (a int)"))
        .isEqualTo(
            new CreateTable(
                QualifiedName.of("T"),
                false,
                List.of(column("A", TypeSpec.of("INTEGER"), Nullability.UNSPECIFIED)),
                Optional.empty(),
                List.of(),
                List.of()));
  }

  @Test
  void primaryKeyWithoutConstraintName() {
    CreateTable table =
        createTable("CREATE TABLE t (a INT, b VARCHAR, PRIMARY KEY (b DESC, a ASC))");
    assertThat(table.primaryKey())
        .contains(
            new PrimaryKey(
                Optional.empty(),
                List.of(new KeyPart("B", Ordering.DESC), new KeyPart("A", Ordering.ASC))));
  }

  @Test
  void inlinePrimaryKey() {
    CreateTable table =
        createTable("CREATE TABLE t (k BIGINT NOT NULL PRIMARY KEY DESC, v VARCHAR NULL)");
    assertThat(table.columns())
        .containsExactly(
            new ColumnDefinition(
                "K",
                TypeSpec.of("BIGINT"),
                Nullability.NOT_NULL,
                Optional.of(Ordering.DESC),
                Optional.empty()),
            column("V", TypeSpec.of("VARCHAR"), Nullability.NULL));
    assertThat(table.primaryKey()).isEmpty();

    assertThat(
            createTable("CREATE TABLE t (k INT PRIMARY KEY)").columns().get(0).inlinePrimaryKey())
        .contains(Ordering.ASC);
    assertThat(
            createTable("CREATE TABLE t (k INT PRIMARY KEY ASC)")
                .columns()
                .get(0)
                .inlinePrimaryKey())
        .contains(Ordering.ASC);
  }

  @Test
  void keywordsAreCaseInsensitive() {
    Statement lower =
        CairnSqlParser.parse(
            "create table if not exists s.t (a integer not null primary key desc default 1)"
                + " salt_buckets = 2 split on (1)");
    Statement mixed =
        CairnSqlParser.parse(
            "CrEaTe TaBlE If NoT ExIsTs S.T (A InTeGeR nOt NuLl PrImArY kEy DeSc DeFaUlT 1)"
                + " Salt_Buckets = 2 SpLiT oN (1)");
    assertThat(mixed).isEqualTo(lower);
    assertThat(CairnSqlParser.parse("drop TABLE if EXISTS x"))
        .isEqualTo(new DropTable(QualifiedName.of("X"), true));
  }

  @Test
  void quotedIdentifiers() {
    CreateTable table =
        createTable(
            "CREATE TABLE \"MySchema\".\"MixedCase\" (\"a\"\"b\" INT, \"col\" INT, col INT,"
                + " \"select\" INT, PRIMARY KEY (\"a\"\"b\"))");
    assertThat(table.name()).isEqualTo(QualifiedName.of("MySchema", "MixedCase"));
    assertThat(table.columns())
        .extracting(ColumnDefinition::name)
        .containsExactly("a\"b", "col", "COL", "select");
    assertThat(table.primaryKey().orElseThrow().columns())
        .containsExactly(new KeyPart("a\"b", Ordering.ASC));
  }

  @Test
  void quotedNameMatchesUnquotedUpperCaseName() {
    // "A" and a are the same name, as in Calcite.
    assertThat(createTable("CREATE TABLE t (a INT, PRIMARY KEY (\"A\"))").primaryKey()).isPresent();
  }

  @Test
  void nonReservedKeywordsAsIdentifiers() {
    CreateTable table =
        createTable("CREATE TABLE key (key INT, asc INT, desc INT, if INT, split INT) split=1");
    assertThat(table.name()).isEqualTo(QualifiedName.of("KEY"));
    assertThat(table.columns())
        .extracting(ColumnDefinition::name)
        .containsExactly("KEY", "ASC", "DESC", "IF", "SPLIT");
    assertThat(table.options()).containsExactly(new TableOption("SPLIT", "1", NUMBER));
    assertThat(CairnSqlParser.parse("DROP TABLE if"))
        .isEqualTo(new DropTable(QualifiedName.of("IF"), false));
  }

  @Test
  void comments() {
    Statement statement =
        CairnSqlParser.parse(
            "-- leading comment\n"
                + "/* block\n comment */ CREATE /* inline */ TABLE t ( -- trailing\n"
                + "  a INT /* between */ NOT NULL, -- another\n"
                + "  b VARCHAR(10)\n"
                + ") -- before end\n"
                + "; -- after semicolon");
    assertThat(statement)
        .isEqualTo(
            new CreateTable(
                QualifiedName.of("T"),
                false,
                List.of(
                    column("A", TypeSpec.of("INTEGER"), Nullability.NOT_NULL),
                    column("B", TypeSpec.of("VARCHAR", 10), Nullability.UNSPECIFIED)),
                Optional.empty(),
                List.of(),
                List.of()));
  }

  @Test
  void optionalTrailingSemicolon() {
    assertThat(CairnSqlParser.parse("DROP TABLE t;"))
        .isEqualTo(CairnSqlParser.parse("DROP TABLE t"))
        .isEqualTo(new DropTable(QualifiedName.of("T"), false));
    assertThat(CairnSqlParser.parse("DROP TABLE t ;  \n"))
        .isEqualTo(CairnSqlParser.parse("DROP TABLE t"));
  }

  @Test
  void dropTable() {
    assertThat(CairnSqlParser.parse("DROP TABLE s.t"))
        .isEqualTo(new DropTable(QualifiedName.of("S", "T"), false));
    assertThat(CairnSqlParser.parse("DROP TABLE IF EXISTS \"s\".t"))
        .isEqualTo(new DropTable(QualifiedName.of("s", "T"), true));
  }

  @Test
  void typeSynonymsAreCanonicalised() {
    assertType("BOOLEAN", TypeSpec.of("BOOLEAN"));
    assertType("TINYINT", TypeSpec.of("TINYINT"));
    assertType("SMALLINT", TypeSpec.of("SMALLINT"));
    assertType("INTEGER", TypeSpec.of("INTEGER"));
    assertType("INT", TypeSpec.of("INTEGER"));
    assertType("BIGINT", TypeSpec.of("BIGINT"));
    assertType("FLOAT", TypeSpec.of("FLOAT"));
    assertType("REAL", TypeSpec.of("FLOAT"));
    assertType("DOUBLE", TypeSpec.of("DOUBLE"));
    assertType("DOUBLE PRECISION", TypeSpec.of("DOUBLE"));
    assertType("DECIMAL", TypeSpec.of("DECIMAL"));
    assertType("DECIMAL(15)", TypeSpec.of("DECIMAL", 15));
    assertType("DECIMAL(15, 2)", TypeSpec.of("DECIMAL", 15, 2));
    assertType("NUMERIC", TypeSpec.of("DECIMAL"));
    assertType("NUMERIC(10,0)", TypeSpec.of("DECIMAL", 10, 0));
    assertType("CHAR", TypeSpec.of("CHAR"));
    assertType("CHAR(1)", TypeSpec.of("CHAR", 1));
    assertType("CHARACTER(25)", TypeSpec.of("CHAR", 25));
    assertType("VARCHAR", TypeSpec.of("VARCHAR"));
    assertType("VARCHAR(152)", TypeSpec.of("VARCHAR", 152));
    assertType("CHARACTER VARYING(7)", TypeSpec.of("VARCHAR", 7));
    assertType("CHARACTER VARYING", TypeSpec.of("VARCHAR"));
    assertType("CHAR VARYING(3)", TypeSpec.of("VARCHAR", 3));
    assertType("DATE", TypeSpec.of("DATE"));
    assertType("TIME", TypeSpec.of("TIME"));
    assertType("TIMESTAMP", TypeSpec.of("TIMESTAMP"));
    assertType("VARBINARY", TypeSpec.of("VARBINARY"));
    assertType("VARBINARY(16)", TypeSpec.of("VARBINARY", 16));
    assertType("BINARY VARYING", TypeSpec.of("VARBINARY"));
    assertType("binary varying(8)", TypeSpec.of("VARBINARY", 8));
    assertType("double precision", TypeSpec.of("DOUBLE"));
  }

  @Test
  void optionValueKinds() {
    CreateTable table =
        createTable(
            "CREATE TABLE t (a INT) S='it''s', N1=-1, N2=1.5, N3=2e3, N4=.5, I=zstd,"
                + " Q=\"Fast_Diff\", B1=TRUE, B2=false, lower_name=x");
    assertThat(table.options())
        .containsExactly(
            new TableOption("S", "it's", STRING),
            new TableOption("N1", "-1", NUMBER),
            new TableOption("N2", "1.5", NUMBER),
            new TableOption("N3", "2e3", NUMBER),
            new TableOption("N4", ".5", NUMBER),
            new TableOption("I", "ZSTD", IDENTIFIER),
            new TableOption("Q", "Fast_Diff", IDENTIFIER),
            new TableOption("B1", "TRUE", BOOLEAN),
            new TableOption("B2", "FALSE", BOOLEAN),
            new TableOption("LOWER_NAME", "X", IDENTIFIER));
  }

  @Test
  void defaultExpressionKeepsSourceText() {
    CreateTable table =
        createTable(
            "CREATE TABLE t (\n"
                + "  a INT DEFAULT 1 + 2 * (3 - x),\n"
                + "  b VARCHAR NOT NULL DEFAULT 'it''s, (odd)' || \"Q\",\n"
                + "  c TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n"
                + "  d DATE DEFAULT DATE '2020-01-01',\n"
                + "  e DECIMAL(10, 2) PRIMARY KEY DEFAULT CAST(1 AS DECIMAL(10, 2)),\n"
                + "  f BIGINT DEFAULT /* not me */ -1 /* me */ + 2 /* not me */ -- nor me\n"
                + "  , g INT DEFAULT CASE WHEN TRUE THEN 1 ELSE f(2, 3) END)");
    assertThat(table.columns())
        .extracting(c -> c.defaultExpression().orElseThrow())
        .containsExactly(
            "1 + 2 * (3 - x)",
            "'it''s, (odd)' || \"Q\"",
            "CURRENT_TIMESTAMP",
            "DATE '2020-01-01'",
            "CAST(1 AS DECIMAL(10, 2))",
            "-1 /* me */ + 2",
            "CASE WHEN TRUE THEN 1 ELSE f(2, 3) END");
    assertThat(table.columns().get(1).nullability()).isEqualTo(Nullability.NOT_NULL);
    assertThat(
            createTable("CREATE TABLE t (a BOOLEAN DEFAULT x IS NOT NULL, b INT DEFAULT y + NULL)")
                .columns())
        .extracting(c -> c.defaultExpression().orElseThrow())
        .containsExactly("x IS NOT NULL", "y + NULL");
    assertThat(table.columns().get(4).inlinePrimaryKey()).contains(Ordering.ASC);
    assertThat(
            createTable("CREATE TABLE t (a INT DEFAULT NULL)").columns().get(0).defaultExpression())
        .contains("NULL");
  }

  @Test
  void splitPointsKeepSourceText() {
    CreateTable table =
        createTable(
            "CREATE TABLE t (a VARCHAR PRIMARY KEY) SPLIT ON ('a', 'it''s' , -5, DATE"
                + " '2020-01-01', ?, (1 + 2))");
    assertThat(table.splitPoints())
        .containsExactly("'a'", "'it''s'", "-5", "DATE '2020-01-01'", "?", "(1 + 2)");
    assertThat(createTable("CREATE TABLE t (a INT) SALT_BUCKETS=2 SPLIT ON (1)").splitPoints())
        .containsExactly("1");
  }

  @Test
  void recordsAreImmutable() {
    CreateTable table = createTable("CREATE TABLE t (a INT) X=1 SPLIT ON (1)");
    assertThatThrownBy(() -> table.columns().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> table.options().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> table.splitPoints().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void alterTableSet() {
    assertThat(
            CairnSqlParser.parse(
                "ALTER TABLE t SET COMPRESSION='ZSTD', data_block_encoding = FAST_DIFF, TTL=60;"))
        .isEqualTo(
            new AlterTableSet(
                QualifiedName.of("T"),
                List.of(
                    new TableOption("COMPRESSION", "ZSTD", STRING),
                    new TableOption("DATA_BLOCK_ENCODING", "FAST_DIFF", IDENTIFIER),
                    new TableOption("TTL", "60", NUMBER))));
    assertThat(CairnSqlParser.parse("alter table s.\"Mixed\" set BLOOMFILTER=ROW"))
        .isEqualTo(
            new AlterTableSet(
                QualifiedName.of("S", "Mixed"),
                List.of(new TableOption("BLOOMFILTER", "ROW", IDENTIFIER))));
  }

  @Test
  void updateStatistics() {
    assertThat(CairnSqlParser.parse("UPDATE STATISTICS t"))
        .isEqualTo(new UpdateStatistics(QualifiedName.of("T")));
    assertThat(CairnSqlParser.parse("update statistics s.\"t\" all;"))
        .isEqualTo(new UpdateStatistics(QualifiedName.of("S", "t")));
    assertThat(CairnSqlParser.parse("UPDATE STATISTICS statistics COLUMNS"))
        .isEqualTo(new UpdateStatistics(QualifiedName.of("STATISTICS")));
    assertThat(CairnSqlParser.parse("DROP TABLE statistics.columns"))
        .isEqualTo(new DropTable(QualifiedName.of("STATISTICS", "COLUMNS"), false));
    assertThat(CairnSqlParser.handles("UPDATE STATISTICS t")).isTrue();
    assertThat(CairnSqlParser.handles("/* c */ update Statistics s.t ALL")).isTrue();
    assertThat(CairnSqlParser.handles("UPDATE STATISTICS t INDEX")).isTrue(); // a syntax error
    // an UPDATE of a table named STATISTICS is Calcite's
    assertThat(CairnSqlParser.handles("UPDATE STATISTICS SET x = 1")).isFalse();
    assertThat(CairnSqlParser.handles("UPDATE statistics AS s SET x = 1")).isFalse();
    assertThat(CairnSqlParser.handles("UPDATE statistics s SET x = 1 WHERE y = 2")).isFalse();
    assertThat(CairnSqlParser.handles("UPDATE t SET x = 1")).isFalse();
    assertThatThrownBy(() -> CairnSqlParser.parse("UPDATE STATISTICS t INDEX"))
        .isInstanceOf(ParsingException.class)
        .hasMessageContaining("INDEX");
  }

  @Test
  void flushAndCompact() {
    assertThat(CairnSqlParser.parse("FLUSH TABLE t"))
        .isEqualTo(new FlushTable(QualifiedName.of("T")));
    assertThat(CairnSqlParser.parse("compact table s.t;"))
        .isEqualTo(new CompactTable(QualifiedName.of("S", "T"), false));
    assertThat(CairnSqlParser.parse("Major_Compact TABLE \"t\""))
        .isEqualTo(new CompactTable(QualifiedName.of("t"), true));
    // The new keywords stay usable as names.
    assertThat(CairnSqlParser.parse("FLUSH TABLE compact"))
        .isEqualTo(new FlushTable(QualifiedName.of("COMPACT")));
    assertThat(CairnSqlParser.parse("DROP TABLE flush.major_compact"))
        .isEqualTo(new DropTable(QualifiedName.of("FLUSH", "MAJOR_COMPACT"), false));
  }

  @Test
  void createIndex() {
    assertThat(CairnSqlParser.parse("CREATE LOCAL INDEX idx ON t (name, qty DESC)"))
        .isEqualTo(
            new CreateIndex(
                QualifiedName.of("IDX"),
                QualifiedName.of("T"),
                false,
                false,
                true,
                Optional.empty(),
                List.of(new IndexPart("name", Ordering.ASC), new IndexPart("qty", Ordering.DESC)),
                List.of(),
                false,
                List.of(),
                List.of(),
                Optional.empty()));
    // plain CREATE INDEX (every other database's) is the same statement, not LOCAL as written
    assertThat(
            CairnSqlParser.parse(
                "create index if not exists \"i\" on s.t (a asc) include (b, \"c\");"))
        .isEqualTo(
            new CreateIndex(
                QualifiedName.of("i"),
                QualifiedName.of("S", "T"),
                true,
                false,
                false,
                Optional.empty(),
                List.of(new IndexPart("a", Ordering.ASC)),
                List.of("B", "c"),
                false,
                List.of(),
                List.of(),
                Optional.empty()));
  }

  @Test
  void createIndexOnExpressionsKeepsTheirSourceText() {
    CreateIndex index =
        (CreateIndex)
            CairnSqlParser.parse(
                "CREATE INDEX i ON t (UPPER(name) DESC, a + b * (c - 1), "
                    + "CASE WHEN x > 0 THEN 'a,b' ELSE /* ) */ 'c' END, substring(s, 1, 2))");
    assertThat(index.parts())
        .containsExactly(
            new IndexPart("UPPER(name)", Ordering.DESC),
            new IndexPart("a + b * (c - 1)", Ordering.ASC),
            new IndexPart("CASE WHEN x > 0 THEN 'a,b' ELSE /* ) */ 'c' END", Ordering.ASC),
            new IndexPart("substring(s, 1, 2)", Ordering.ASC));
  }

  @Test
  void createIndexKeepsTheClausesThePlannerRefuses() {
    CreateIndex index =
        (CreateIndex)
            CairnSqlParser.parse(
                "CREATE UNIQUE INDEX s.i ON t USING hash (a) INCLUDE (b) ASYNC SALT_BUCKETS=4"
                    + " SPLIT ON (1, 2) WHERE a > 0 AND (b IS NULL)");
    assertThat(index.unique()).isTrue();
    assertThat(index.local()).isFalse();
    assertThat(index.name()).isEqualTo(QualifiedName.of("S", "I"));
    assertThat(index.method()).contains("HASH");
    assertThat(index.include()).containsExactly("B");
    assertThat(index.async()).isTrue();
    assertThat(index.options()).containsExactly(new TableOption("SALT_BUCKETS", "4", NUMBER));
    assertThat(index.splitPoints()).containsExactly("1", "2");
    assertThat(index.where()).contains("a > 0 AND (b IS NULL)");
    assertThat(CairnSqlParser.parse("CREATE UNIQUE LOCAL INDEX i ON t (a)"))
        .isEqualTo(
            new CreateIndex(
                QualifiedName.of("I"),
                QualifiedName.of("T"),
                false,
                true,
                true,
                Optional.empty(),
                List.of(new IndexPart("a", Ordering.ASC)),
                List.of(),
                false,
                List.of(),
                List.of(),
                Optional.empty()));
  }

  @Test
  void indexKeywordsAreNames() {
    // INDEX, INCLUDE, ASYNC and REBUILD are not reserved: columns and tables may be named so
    assertThat(
            CairnSqlParser.parse("CREATE INDEX index ON include (async, rebuild) INCLUDE (index)"))
        .isEqualTo(
            CreateIndex.of(
                QualifiedName.of("INDEX"),
                QualifiedName.of("INCLUDE"),
                false,
                List.of(
                    new IndexPart("async", Ordering.ASC), new IndexPart("rebuild", Ordering.ASC)),
                List.of("INDEX")));
    assertThat(CairnSqlParser.parse("DROP TABLE index"))
        .isEqualTo(new DropTable(QualifiedName.of("INDEX"), false));
  }

  @Test
  void dropIndex() {
    assertThat(CairnSqlParser.parse("DROP INDEX i ON s.t"))
        .isEqualTo(
            new DropIndex(QualifiedName.of("I"), Optional.of(QualifiedName.of("S", "T")), false));
    assertThat(CairnSqlParser.parse("drop index if exists s.i"))
        .isEqualTo(new DropIndex(QualifiedName.of("S", "I"), Optional.empty(), true));
  }

  @Test
  void alterIndex() {
    assertThat(CairnSqlParser.parse("ALTER INDEX i ON t REBUILD"))
        .isEqualTo(
            new AlterIndex(
                QualifiedName.of("I"), Optional.of(QualifiedName.of("T")), false, "REBUILD"));
    assertThat(CairnSqlParser.parse("alter index if exists i on s.t rebuild all async"))
        .isEqualTo(
            new AlterIndex(
                QualifiedName.of("I"),
                Optional.of(QualifiedName.of("S", "T")),
                true,
                "REBUILD ALL ASYNC"));
    assertThat(CairnSqlParser.parse("ALTER INDEX i ON t disable"))
        .isEqualTo(
            new AlterIndex(
                QualifiedName.of("I"), Optional.of(QualifiedName.of("T")), false, "DISABLE"));
    assertThat(CairnSqlParser.parse("ALTER INDEX s.i rename to \"j\""))
        .isEqualTo(
            new AlterIndex(QualifiedName.of("S", "I"), Optional.empty(), false, "RENAME TO \"j\""));
  }

  @Test
  void checkIndex() {
    assertThat(CairnSqlParser.parse("CHECK INDEX i ON s.t"))
        .isEqualTo(new CheckIndex(QualifiedName.of("I"), Optional.of(QualifiedName.of("S", "T"))));
    assertThat(CairnSqlParser.parse("check index i;"))
        .isEqualTo(new CheckIndex(QualifiedName.of("I"), Optional.empty()));
  }

  @Test
  void handlesAlterTableSetOnly() {
    assertThat(CairnSqlParser.handles("ALTER TABLE t SET TTL=1")).isTrue();
    assertThat(CairnSqlParser.handles("alter table s.t set ttl=1")).isTrue();
    assertThat(CairnSqlParser.handles("ALTER TABLE \"a b\" /* x */ SET")).isTrue();
    assertThat(CairnSqlParser.handles("ALTER TABLE key SET TTL=1")).isTrue();
    assertThat(CairnSqlParser.handles("ALTER TABLE t ADD c INTEGER")).isFalse();
    assertThat(CairnSqlParser.handles("ALTER TABLE t DROP COLUMN c")).isFalse();
    assertThat(CairnSqlParser.handles("ALTER TABLE s.t RENAME TO u")).isFalse();
    assertThat(CairnSqlParser.handles("ALTER TABLE t")).isFalse();
    // every ALTER INDEX is the grammar's: the planner refuses the forms it lacks by name
    assertThat(CairnSqlParser.handles("ALTER INDEX i ON t SET x=1")).isTrue();
    assertThat(CairnSqlParser.handles("FLUSH TABLE t")).isTrue();
    assertThat(CairnSqlParser.handles("COMPACT TABLE t")).isTrue();
    assertThat(CairnSqlParser.handles("MAJOR_COMPACT TABLE t")).isTrue();
    assertThat(CairnSqlParser.handles("FLUSH t")).isFalse();
  }

  @Test
  void handles() {
    assertThat(CairnSqlParser.handles("CREATE TABLE t (a INT)")).isTrue();
    assertThat(CairnSqlParser.handles("create table t")).isTrue();
    assertThat(CairnSqlParser.handles("DROP TABLE t")).isTrue();
    assertThat(CairnSqlParser.handles("  -- comment\n /* SELECT */ drop\n/*x*/table t")).isTrue();

    assertThat(CairnSqlParser.handles("SELECT * FROM t")).isFalse();
    assertThat(CairnSqlParser.handles("select 'CREATE TABLE'")).isFalse();
    assertThat(CairnSqlParser.handles("UPSERT INTO t VALUES (1)")).isFalse();
    assertThat(CairnSqlParser.handles("INSERT INTO t VALUES (1)")).isFalse();
    assertThat(CairnSqlParser.handles("DELETE FROM t")).isFalse();
    assertThat(CairnSqlParser.handles("EXPLAIN SELECT 1")).isFalse();
    assertThat(CairnSqlParser.handles("VALUES (1)")).isFalse();
    assertThat(CairnSqlParser.handles("WITH x AS (SELECT 1) SELECT * FROM x")).isFalse();
    assertThat(CairnSqlParser.handles("/* CREATE TABLE t */ SELECT 1")).isFalse();
    assertThat(CairnSqlParser.handles("-- CREATE TABLE t\nSELECT 1")).isFalse();
    assertThat(CairnSqlParser.handles("'CREATE' TABLE")).isFalse();
    assertThat(CairnSqlParser.handles("\"CREATE\" TABLE t")).isFalse();
    assertThat(CairnSqlParser.handles("CREATE VIEW v AS SELECT 1")).isFalse();
    assertThat(CairnSqlParser.handles("CREATE")).isFalse();
    assertThat(CairnSqlParser.handles("")).isFalse();
    assertThat(CairnSqlParser.handles("   ")).isFalse();
    assertThat(CairnSqlParser.handles("/* unterminated CREATE TABLE")).isFalse();
  }

  private static void assertType(String sqlType, TypeSpec expected) {
    CreateTable table = createTable("CREATE TABLE t (c " + sqlType + ")");
    assertThat(table.columns().get(0).type()).as(sqlType).isEqualTo(expected);
  }

  private static CreateTable createTable(String sql) {
    Statement statement = CairnSqlParser.parse(sql);
    assertThat(statement).isInstanceOf(CreateTable.class);
    return (CreateTable) statement;
  }

  private static ColumnDefinition column(String name, TypeSpec type, Nullability nullability) {
    return new ColumnDefinition(name, type, nullability, Optional.empty(), Optional.empty());
  }
}
