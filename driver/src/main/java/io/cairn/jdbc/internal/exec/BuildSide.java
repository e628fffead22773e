package io.cairn.jdbc.internal.exec;

import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a join's build side depends on besides its plan: the parameters it reads and the KV tables
 * it scans, and whether it varies without them ({@code varies}: it reads the time, or holds
 * something the walk cannot read), when no two executions may share it. Found by walking the plan's
 * records (nodes, expressions, key bounds, probes) through their components, so that a node or
 * expression added later is walked too; catalog descriptors are not (a plan's tables are named by
 * its {@link ScanNode}s). Computed once per plan ({@link #of}).
 */
record BuildSide(int[] parameters, List<String> tables, boolean varies) {
  BuildSide {
    parameters = parameters.clone();
    tables = List.copyOf(tables);
  }

  private static final Map<PlanNode, BuildSide> CACHE =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /**
   * The dependencies of {@code build}, computed once per plan object (plans are immutable and kept
   * by their statements; a weak map, so they go with them). Identity matters: a WeakHashMap
   * compares keys by equals, and equal plans have equal dependencies.
   */
  static BuildSide of(PlanNode build) {
    BuildSide known = CACHE.get(build);
    if (known != null) {
      return known;
    }
    TreeSet<Integer> params = new TreeSet<>();
    TreeSet<String> tables = new TreeSet<>();
    boolean[] time = new boolean[1];
    walk(build, params, tables, time, new IdentityHashMap<>());
    BuildSide side =
        new BuildSide(
            params.stream().mapToInt(Integer::intValue).toArray(),
            new ArrayList<>(tables),
            time[0]);
    CACHE.put(build, side);
    return side;
  }

  /** The values of the parameters the build side reads, in {@code ctx}. */
  Object[] parameterValues(ExecContext ctx) {
    Object[] values = new Object[parameters.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = ctx.eval().parameter(parameters[i]);
    }
    return values;
  }

  private static void walk(
      Object o,
      TreeSet<Integer> params,
      TreeSet<String> tables,
      boolean[] time,
      IdentityHashMap<Object, Boolean> seen) {
    if (o == null || seen.put(o, Boolean.TRUE) != null) {
      return;
    }
    if (o instanceof Expr.Param p) {
      params.add(p.index());
      return;
    }
    if (o instanceof Expr.Call c && readsTime(c.op())) {
      time[0] = true;
    }
    if (o instanceof ScanNode s) {
      tables.add(s.table().kvTableName());
    }
    if (o instanceof Iterable<?> it) {
      for (Object e : it) {
        walk(e, params, tables, time, seen);
      }
    } else if (o instanceof Optional<?> opt) {
      walk(opt.orElse(null), params, tables, time, seen);
    } else if (o instanceof Object[] array) {
      for (Object e : array) {
        walk(e, params, tables, time, seen);
      }
    } else if (o instanceof Record r && walked(r)) {
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        if (c.getType().isPrimitive()) {
          continue;
        }
        Object value;
        try {
          value = c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException | RuntimeException e) {
          time[0] = true; // what it holds is unknown: treat it as varying
          return;
        }
        walk(value, params, tables, time, seen);
      }
    }
  }

  /** Plan and expression records; not catalog descriptors nor types. */
  private static boolean walked(Record r) {
    String name = r.getClass().getName();
    return name.startsWith("io.cairn.")
        && !name.startsWith("io.cairn.core.catalog.")
        && !name.startsWith("io.cairn.core.type.");
  }

  private static boolean readsTime(Op op) {
    return switch (op) {
      case CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIMESTAMP -> true;
      default -> false;
    };
  }
}
