package io.cairn.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;

/**
 * Calcite's field trimmer, which also drops the columns a join reads only for its own condition:
 * Calcite keeps in a join's output every input column its condition reads, so in a chain of joins
 * each join's rows carry the keys of all the joins below (TPC-H Q9's 325,000 joined rows kept ten
 * columns where the rest of the query reads six, and the next join's hash table held them all). A
 * projection of the columns used above goes on top of such a join. Public: Calcite dispatches to
 * the trimFields methods by reflection.
 */
public final class JoinFieldTrimmer extends RelFieldTrimmer {
  private final RelBuilder relBuilder;

  JoinFieldTrimmer(SqlValidator validator, RelBuilder relBuilder) {
    super(validator, relBuilder);
    this.relBuilder = relBuilder;
  }

  @Override
  public TrimResult trimFields(
      Join join, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
    TrimResult trimmed = super.trimFields(join, fieldsUsed, extraFields);
    RelNode rel = trimmed.left;
    Mapping mapping = trimmed.right;
    if (!extraFields.isEmpty()
        || fieldsUsed.isEmpty()
        || mapping.getTargetCount() <= fieldsUsed.cardinality()) {
      return trimmed;
    }
    List<RexNode> kept = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<RelDataTypeField> fields = join.getRowType().getFieldList();
    for (int f : fieldsUsed) {
      int at = mapping.getTargetOpt(f);
      if (at < 0) {
        return trimmed;
      }
      kept.add(relBuilder.getRexBuilder().makeInputRef(rel, at));
      names.add(fields.get(f).getName());
    }
    RelNode projected = relBuilder.push(rel).project(kept, names, true).build();
    return result(projected, createMapping(fieldsUsed, fields.size()));
  }
}
