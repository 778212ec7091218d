package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.proc.Scope.Shape;
import org.tebaldi.core.txn.OpKind;

/**
 * Checks a procedure body and compiles it into a {@link Program} in one pass over the AST (docs/architecture.md, "Transactions"). All
 * build-time errors are {@link ProcedureException}s of the form {@code "<proc>: statement <n> (<label>): <what>"}.
 * Package-private.
 */
final class Compiler {
    private final Scope scope;
    private final ExprCompiler exprs;
    private final List<Insn> code = new ArrayList<>();
    private int counter;
    private int maxArity;

    private Compiler(String name, Catalog catalog, List<String> params, List<Stmt> body) {
        Set<String> known = new HashSet<>();
        for (Stmt s : Stmt.flatten(body)) {
            s.defines().ifPresent(known::add);
        }
        this.scope = new Scope(name, catalog, params, known, Kinds.locals(body));
        this.exprs = new ExprCompiler(scope);
    }

    /**
     * Checks and compiles {@code body}.
     *
     * @throws ProcedureException on the first build-time error found (in statement order)
     */
    static Program compile(String name, Catalog catalog, List<String> params, List<Stmt> body) {
        Compiler c = new Compiler(name, catalog, params, body);
        c.block(body);
        c.code.add(new Insn.End());
        int[] primOf = c.scope.primOf();
        return new Program(name, c.code.toArray(new Insn[0]), c.scope.slotCount(), c.scope.primCount(), primOf,
                c.scope.slotKinds(), c.maxArity, new Workspace.Pool());
    }

    private void block(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            stmt(s);
        }
    }

    private void stmt(Stmt s) {
        int no = ++counter;
        String label = s.describe();
        scope.at(no, label);
        if (s instanceof Stmt.Let l) {
            scope.assignable(l.local());
            if (scope.kind(l.local()).numeric()) {
                Ev pending = exprs.movePending(l.value());
                Ev.OfLong bits = exprs.primBits(l.value());
                scope.assign(l.local(), exprs.shapeOf(l.value()));
                code.add(new Insn.LetPrim(no, label, scope.slot(l.local()), scope.prim(l.local()), pending, bits));
                return;
            }
            Ev v = exprs.move(l.value());
            Shape shape = exprs.shapeOf(l.value());
            scope.assign(l.local(), shape);
            code.add(new Insn.Let(no, label, scope.slot(l.local()), v, shape == Shape.ARRAY));
        } else if (s instanceof Stmt.Read r) {
            TableSchema t = scope.table(r.table());
            Ev.OfLong[] key = key(t, r.key());
            int slot = into(r.into(), t);
            code.add(new IssueInsn(no, label, r.kind(), t, key, slot));
        } else if (s instanceof Stmt.Write w) {
            write(no, label, w);
        } else if (s instanceof Stmt.Update u) {
            TableSchema t = scope.table(u.table());
            Ev.OfLong[] key = key(t, u.key());
            UpdateTemplate tpl = exprs.update(t, u.assignments(),
                    scope.proc() + ": statement " + no + " (" + label + ") at the data server: ");
            int slot = into(u.into(), t);
            code.add(new IssueInsn.Update(no, label, t, key, slot, tpl));
        } else if (s instanceof Stmt.Delete d) {
            TableSchema t = scope.table(d.table());
            code.add(new IssueInsn(no, label, OpKind.DELETE, t, key(t, d.key()), -1));
        } else if (s instanceof Stmt.If i) {
            ifStmt(no, label, i);
        } else if (s instanceof Stmt.For f) {
            forStmt(no, label, f);
        } else if (s instanceof Stmt.NewArray n) {
            scope.assignable(n.local());
            Ev.OfLong size = exprs.longExact(n.size(), "array size");
            scope.assign(n.local(), Shape.ARRAY);
            code.add(new Insn.NewArray(no, label, scope.slot(n.local()), size));
        } else if (s instanceof Stmt.SetElem se) {
            int slot = scope.readable(se.array());
            Shape shape = scope.shape(se.array());
            if (shape != Shape.ARRAY) {
                throw scope.error("setElem needs a local array (created by newArray), but '" + se.array()
                        + "' holds " + (shape == null ? "only null" : shape.kind()));
            }
            Insn.Index index = index(se.index());
            Ev value = exprs.move(se.value());
            code.add(new Insn.SetElem(no, label, slot, index, value));
        } else if (s instanceof Stmt.Output o) {
            code.add(new Insn.Output(no, label, o.name(), exprs.tc(o.value())));
        } else if (s instanceof Stmt.Abort a) {
            code.add(new Insn.Abort(no, label, a.reason()));
            scope.kill();
        } else {
            throw new IllegalStateException("unexpected statement " + s);
        }
    }

    private Ev.OfLong[] key(TableSchema t, List<Expr> parts) {
        if (parts.size() != t.keyArity()) {
            throw scope.error("table " + t.name() + " needs " + t.keyArity() + " key parts, got " + parts.size());
        }
        maxArity = Math.max(maxArity, parts.size());
        Ev.OfLong[] key = new Ev.OfLong[parts.size()];
        for (int i = 0; i < key.length; i++) {
            key[i] = exprs.keyPart(parts.get(i), i, t);
        }
        return key;
    }

    /** An array index, unboxed when its kind is LONG. */
    private Insn.Index index(Expr e) {
        if (exprs.kind(e) == Kinds.Kind.LONG) {
            Ev.OfLong i = exprs.longExact(e, "array index");
            return (f, length) -> Values.index(i.eval(f), length);
        }
        Ev i = exprs.tc(e);
        return (f, length) -> Values.index(i.eval(f), length);
    }

    /** Declares the result local of a read or update; -1 if none. */
    private int into(String local, TableSchema t) {
        if (local == null) {
            return -1;
        }
        scope.assignable(local);
        scope.assign(local, Shape.row(t));
        return scope.slot(local);
    }

    private void write(int no, String label, Stmt.Write w) {
        TableSchema t = scope.table(w.table());
        Ev.OfLong[] key = key(t, w.key());
        int[] columns = new int[w.row().size()];
        Ev[] values = new Ev[columns.length];
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < columns.length; i++) {
            Assign a = w.row().get(i);
            columns[i] = scope.column(t, a.column());
            if (!seen.add(a.column())) {
                throw scope.error("column '" + a.column() + "' assigned twice");
            }
            values[i] = exprs.tc(a.value());
        }
        code.add(new IssueInsn.Write(no, label, t, key, columns, values));
    }

    private void ifStmt(int no, String label, Stmt.If s) {
        if (s.otherwise().isEmpty() && s.then().size() == 1 && s.then().get(0) instanceof Stmt.Abort a
                && s.cond() instanceof Expr.Unary u && u.op() == Expr.UnaryOp.IS_NULL
                && u.operand() instanceof Expr.Local l) {
            // abortIf(isNull(row), ...): in a batched run the check waits for the row without holding back the
            // operations that follow (Insn.AbortIfNull)
            code.add(new Insn.AbortIfNull(no, label, scope.readable(l.name()), scope.prim(l.name()) >= 0, a.reason()));
            return;
        }
        Insn.Branch branch = new Insn.Branch(no, label, exprs.condition(s.cond(), "condition"));
        code.add(branch);
        Scope.Flow before = scope.flow();
        block(s.then());
        Scope.Flow afterThen = scope.flow();
        if (s.otherwise().isEmpty()) {
            branch.target = code.size();
            scope.restore(afterThen.merge(before));
            return;
        }
        Insn.Jump skip = new Insn.Jump(no, label);
        code.add(skip);
        branch.target = code.size();
        scope.restore(before);
        block(s.otherwise());
        skip.target = code.size();
        scope.restore(afterThen.merge(scope.flow()));
    }

    private void forStmt(int no, String label, Stmt.For s) {
        if (s.maxIterations() < 1) {
            throw scope.error("maxIterations must be >= 1, got " + s.maxIterations());
        }
        scope.assignable(s.var());
        Ev.OfLong from = exprs.longExact(s.from(), "loop start");
        Ev.OfLong to = exprs.longExact(s.to(), "loop end");
        Scope.Flow before = scope.flow();
        scope.assign(s.var(), Shape.VALUE);
        int varSlot = scope.slot(s.var());
        int varPrim = scope.prim(s.var());
        int toPrim = scope.hiddenPrim();
        code.add(new Insn.ForInit(no, label, varSlot, varPrim, toPrim, from, to, s.maxIterations()));
        int testPc = code.size();
        Insn.ForTest test = new Insn.ForTest(no, label, varSlot, varPrim, toPrim);
        code.add(test);
        scope.enterLoop(s.var());
        block(s.body());
        scope.exitLoop(s.var());
        code.add(new Insn.ForNext(no, label, varSlot, varPrim, testPc));
        test.end = code.size();
        scope.restore(before);
    }
}
