/*
 * Cairn's grammar for DDL and dialect statements. Queries and DML (SELECT, UPSERT, INSERT,
 * DELETE, EXPLAIN, VALUES, WITH) belong to Calcite's parser; StatementClassifier decides.
 *
 * Keywords are case-insensitive. Identifier rules live in io.cairn.sql.Identifiers (Calcite's
 * defaults): "double quotes" keep case, "" inside quotes is one quote, unquoted names are
 * upper-cased. Expressions (DEFAULT, SPLIT ON) are not parsed here: they are balanced token
 * runs whose source text is handed to Calcite's expression parser by the planner.
 *
 * Adding a statement: add an alternative to `statement` with a #label, a record in
 * io.cairn.sql.tree permitted by Statement, a visitXxx method in AstBuilder and, when it starts
 * with new leading keywords, an entry in StatementClassifier's owned prefixes.
 */
grammar CairnSqlBase;

options { caseInsensitive = true; }

singleStatement
    : statement SEMICOLON? EOF
    ;

statement
    : CREATE TABLE (IF NOT EXISTS)? qualifiedName
        '(' columnDefinition (',' columnDefinition)* (',' primaryKeyConstraint)? ')'
        (tableOption (',' tableOption)*)?
        (SPLIT ON '(' expression (',' expression)* ')')?                    #createTable
    | DROP TABLE (IF EXISTS)? qualifiedName                                  #dropTable
    | ALTER TABLE qualifiedName SET tableOption (',' tableOption)*           #alterTableSet
    | FLUSH TABLE qualifiedName                                              #flushTable
    | SPLIT TABLE qualifiedName                                              #splitTable
    | COMPACT TABLE qualifiedName                                            #compactTable
    | MAJOR_COMPACT TABLE qualifiedName                                      #majorCompactTable
    | UPDATE STATISTICS qualifiedName (ALL | COLUMNS)?                         #updateStatistics
    ;

columnDefinition
    : identifier dataType nullability? inlinePrimaryKey? (DEFAULT expression)?
    ;

nullability
    : NOT NULL
    | NULL
    ;

inlinePrimaryKey
    : PRIMARY KEY ordering?
    ;

primaryKeyConstraint
    : (CONSTRAINT identifier)? PRIMARY KEY '(' keyPart (',' keyPart)* ')'
    ;

keyPart
    : identifier ordering?
    ;

ordering
    : ASC
    | DESC
    ;

tableOption
    : identifier '=' optionValue
    ;

optionValue
    : STRING                                                  #stringOptionValue
    | MINUS? (INTEGER_VALUE | DECIMAL_VALUE | DOUBLE_VALUE)   #numericOptionValue
    | (TRUE | FALSE)                                          #booleanOptionValue
    | identifier                                              #identifierOptionValue
    ;

dataType
    : BOOLEAN                                                 #booleanType
    | TINYINT                                                 #tinyintType
    | SMALLINT                                                #smallintType
    | (INTEGER | INT)                                         #integerType
    | BIGINT                                                  #bigintType
    | (FLOAT | REAL)                                          #floatType
    | DOUBLE PRECISION?                                       #doubleType
    | (DECIMAL | NUMERIC)
        ('(' precision=INTEGER_VALUE (',' scale=INTEGER_VALUE)? ')')?      #decimalType
    | (CHAR | CHARACTER) ('(' length=INTEGER_VALUE ')')?      #charType
    | (VARCHAR | CHARACTER VARYING | CHAR VARYING)
        ('(' length=INTEGER_VALUE ')')?                       #varcharType
    | DATE                                                    #dateType
    | TIME                                                    #timeType
    | TIMESTAMP ('(' precision=INTEGER_VALUE ')')?             #timestampType
    | (VARBINARY | BINARY VARYING) ('(' length=INTEGER_VALUE ')')?         #varbinaryType
    ;

// An expression is a non-empty run of tokens with balanced parentheses that stops before a
// top-level ',', ')' or ';' and before the keywords that start the next clause.
expression
    : expressionToken+
    ;

expressionToken
    : '(' nestedExpressionToken* ')'
    | ~('(' | ')' | ',' | SEMICOLON | PRIMARY | CONSTRAINT | DEFAULT | UNRECOGNIZED)
    ;

nestedExpressionToken
    : '(' nestedExpressionToken* ')'
    | ~('(' | ')' | SEMICOLON | UNRECOGNIZED)
    ;

qualifiedName
    : identifier ('.' identifier)?
    ;

identifier
    : IDENTIFIER
    | QUOTED_IDENTIFIER
    | nonReserved
    ;

// Keywords that may still be used as unquoted identifiers (Calcite does not reserve them).
nonReserved
    : ASC | COLUMNS | COMPACT | DESC | FLUSH | IF | KEY | MAJOR_COMPACT | SPLIT | STATISTICS
    ;

ALL: 'ALL';
ALTER: 'ALTER';
ASC: 'ASC';
BIGINT: 'BIGINT';
BINARY: 'BINARY';
BOOLEAN: 'BOOLEAN';
CHAR: 'CHAR';
CHARACTER: 'CHARACTER';
COLUMNS: 'COLUMNS';
COMPACT: 'COMPACT';
CONSTRAINT: 'CONSTRAINT';
CREATE: 'CREATE';
DATE: 'DATE';
DECIMAL: 'DECIMAL';
DEFAULT: 'DEFAULT';
DESC: 'DESC';
DOUBLE: 'DOUBLE';
DROP: 'DROP';
EXISTS: 'EXISTS';
FALSE: 'FALSE';
FLOAT: 'FLOAT';
FLUSH: 'FLUSH';
IF: 'IF';
INT: 'INT';
INTEGER: 'INTEGER';
KEY: 'KEY';
MAJOR_COMPACT: 'MAJOR_COMPACT';
NOT: 'NOT';
NULL: 'NULL';
NUMERIC: 'NUMERIC';
ON: 'ON';
PRECISION: 'PRECISION';
PRIMARY: 'PRIMARY';
REAL: 'REAL';
SET: 'SET';
SMALLINT: 'SMALLINT';
SPLIT: 'SPLIT';
STATISTICS: 'STATISTICS';
TABLE: 'TABLE';
TIME: 'TIME';
TIMESTAMP: 'TIMESTAMP';
TINYINT: 'TINYINT';
TRUE: 'TRUE';
UPDATE: 'UPDATE';
VARBINARY: 'VARBINARY';
VARCHAR: 'VARCHAR';
VARYING: 'VARYING';

COMMA: ',';
LPAREN: '(';
RPAREN: ')';
DOT: '.';
EQ: '=';
NEQ: '<>' | '!=';
LT: '<';
LTE: '<=';
GT: '>';
GTE: '>=';
PLUS: '+';
MINUS: '-';
ASTERISK: '*';
SLASH: '/';
PERCENT: '%';
CONCAT: '||';
QUESTION_MARK: '?';
COLON: ':';
LBRACKET: '[';
RBRACKET: ']';
SEMICOLON: ';';

STRING
    : '\'' ( ~'\'' | '\'\'' )* '\''
    ;

INTEGER_VALUE
    : DIGIT+
    ;

DECIMAL_VALUE
    : DIGIT+ '.' DIGIT*
    | '.' DIGIT+
    ;

DOUBLE_VALUE
    : (DIGIT+ ('.' DIGIT*)? | '.' DIGIT+) 'E' [+-]? DIGIT+
    ;

IDENTIFIER
    : (LETTER | '_') (LETTER | DIGIT | '_' | '$')*
    ;

QUOTED_IDENTIFIER
    : '"' ( ~'"' | '""' )* '"'
    ;

fragment DIGIT
    : [0-9]
    ;

fragment LETTER
    : [A-Z]
    | [\p{L}]
    ;

SIMPLE_COMMENT
    : '--' ~[\r\n]* '\r'? '\n'? -> channel(HIDDEN)
    ;

BRACKETED_COMMENT
    : '/*' .*? '*/' -> channel(HIDDEN)
    ;

WS
    : [ \r\n\t\f]+ -> channel(HIDDEN)
    ;

// Anything else, including an unterminated string, quoted identifier or comment, becomes one
// token that no rule accepts, so the lexer never fails and the parser reports its position.
UNRECOGNIZED
    : .
    ;
