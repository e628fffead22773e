/*
 * Cairn's grammar for DDL and dialect statements. Queries and DML (SELECT, UPSERT, INSERT,
 * DELETE, EXPLAIN, VALUES, WITH) belong to Calcite's parser; StatementClassifier decides.
 *
 * Keywords are case-insensitive. Identifier rules live in io.cairn.sql.Identifiers (Calcite's
 * defaults): "double quotes" keep case, "" inside quotes is one quote, unquoted names are
 * upper-cased. Expressions (DEFAULT, SPLIT ON, an index's key parts) are not parsed here: they
 * are balanced token runs whose source text is handed to Calcite's expression parser by the
 * planner.
 *
 * Adding a statement: add an alternative to `statement` (or to the rule of its verb:
 * createObject, dropObject, alterObject) with a #label, a record in
 * io.cairn.sql.tree permitted by Statement, a visitXxx method in AstBuilder and, when it starts
 * with new leading keywords, an entry in StatementClassifier's owned prefixes.
 */
grammar CairnSqlBase;

options { caseInsensitive = true; }

singleStatement
    : statement SEMICOLON? EOF
    ;

statement
    : CREATE createObject                                                    #create
    | DROP dropObject                                                        #drop
    | ALTER alterObject                                                      #alter
    | FLUSH TABLE qualifiedName                                              #flushTable
    | SPLIT TABLE qualifiedName                                              #splitTable
    | COMPACT TABLE qualifiedName                                            #compactTable
    | MAJOR_COMPACT TABLE qualifiedName                                      #majorCompactTable
    | UPDATE STATISTICS qualifiedName (ALL | COLUMNS)?                         #updateStatistics
    | CHECK INDEX qualifiedName (ON qualifiedName)?                          #checkIndex
    ;

// The statements that share a verb branch on the word after it, so that an error there expects
// exactly those words.
createObject
    : TABLE (IF NOT EXISTS)? qualifiedName
        '(' columnDefinition (',' columnDefinition)* (',' primaryKeyConstraint)? ')'
        (tableOption (',' tableOption)*)?
        (SPLIT ON '(' expression (',' expression)* ')')?                    #createTable
    | UNIQUE? LOCAL? INDEX (IF NOT EXISTS)? qualifiedName ON qualifiedName
        (USING method=identifier)?
        '(' indexPart (',' indexPart)* ')'
        (INCLUDE '(' identifier (',' identifier)* ')')?
        ASYNC?
        (tableOption (',' tableOption)*)?
        (SPLIT ON '(' expression (',' expression)* ')')?
        (WHERE where=expression)?                                            #createIndex
    ;

dropObject
    : TABLE (IF EXISTS)? qualifiedName                                       #dropTable
    | INDEX (IF EXISTS)? qualifiedName (ON qualifiedName)?                   #dropIndex
    ;

alterObject
    : TABLE qualifiedName SET tableOption (',' tableOption)*                 #alterTableSet
    | INDEX (IF EXISTS)? qualifiedName (ON qualifiedName)? alterIndexAction  #alterIndex
    ;

// A key part of an index: a column or an expression over the table's columns, with its order.
indexPart
    : indexExpression ordering?
    ;

// Like expression, but ASC and DESC end it at the top level (they order the part).
indexExpression
    : indexExpressionToken+
    ;

indexExpressionToken
    : '(' nestedExpressionToken* ')'
    | ~('(' | ')' | ',' | SEMICOLON | ASC | DESC | UNRECOGNIZED)
    ;

// REBUILD, or any other action (refused by the planner, naming it), which starts with a word
// other than ON.
alterIndexAction
    : REBUILD ALL? ASYNC?                                                    #rebuildAction
    | ~(ON | SEMICOLON | UNRECOGNIZED) otherIndexActionToken*                #otherAction
    ;

otherIndexActionToken
    : ~(SEMICOLON | UNRECOGNIZED)
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
    : ASC | ASYNC | COLUMNS | COMPACT | DESC | FLUSH | IF | INCLUDE | INDEX | KEY | MAJOR_COMPACT
    | REBUILD | SPLIT | STATISTICS
    ;

ALL: 'ALL';
ALTER: 'ALTER';
ASC: 'ASC';
ASYNC: 'ASYNC';
BIGINT: 'BIGINT';
BINARY: 'BINARY';
BOOLEAN: 'BOOLEAN';
CHAR: 'CHAR';
CHARACTER: 'CHARACTER';
CHECK: 'CHECK';
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
INCLUDE: 'INCLUDE';
INDEX: 'INDEX';
INT: 'INT';
INTEGER: 'INTEGER';
KEY: 'KEY';
LOCAL: 'LOCAL';
MAJOR_COMPACT: 'MAJOR_COMPACT';
NOT: 'NOT';
NULL: 'NULL';
NUMERIC: 'NUMERIC';
ON: 'ON';
PRECISION: 'PRECISION';
PRIMARY: 'PRIMARY';
REAL: 'REAL';
REBUILD: 'REBUILD';
SET: 'SET';
SMALLINT: 'SMALLINT';
SPLIT: 'SPLIT';
STATISTICS: 'STATISTICS';
TABLE: 'TABLE';
TIME: 'TIME';
TIMESTAMP: 'TIMESTAMP';
TINYINT: 'TINYINT';
TRUE: 'TRUE';
UNIQUE: 'UNIQUE';
UPDATE: 'UPDATE';
USING: 'USING';
VARBINARY: 'VARBINARY';
VARCHAR: 'VARCHAR';
VARYING: 'VARYING';
WHERE: 'WHERE';

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
