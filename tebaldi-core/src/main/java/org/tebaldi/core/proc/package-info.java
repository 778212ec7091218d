/**
 * Stored procedures (docs/architecture.md, "Transactions", dissertation §5.4.2): an immutable AST ({@link org.tebaldi.core.proc.Stmt},
 * {@link org.tebaldi.core.proc.Expr}) built with a Java DSL ({@link org.tebaldi.core.proc.Procedure#define},
 * {@link org.tebaldi.core.proc.Block}, {@link org.tebaldi.core.proc.Exprs}), checked and compiled once into a flat
 * instruction program, and interpreted by the transaction coordinator one data operation at a time
 * ({@link org.tebaldi.core.proc.ProcRun}). Updates ship as data ({@link org.tebaldi.core.proc.ExprUpdate}) after
 * partial evaluation at the TC. The interpreter does not box: locals and expressions whose static kind is long or
 * double ({@code Kinds}) are kept and computed unboxed, values still in flight in a batched run are shared markers
 * ({@code Pending}), and a run's storage is reused by the next run of the procedure ({@code Workspace}). Files: AST
 * ({@code Expr}, {@code Stmt}, {@code Assign}), DSL ({@code Exprs}, {@code Block}, {@code ProcedureBuilder}), checking
 * and compilation ({@code Scope}, {@code Kinds}, {@code ExprCompiler}, {@code TypedExprs}, {@code BoolExprs},
 * {@code BoxedExprs}, {@code Compiler}), execution ({@code Program}, {@code Insn}, {@code IssueInsn}, {@code Run},
 * {@code Batch}, {@code Pending}, {@code Workspace}, {@code Frame}, {@code Ev}), values and operators ({@code Values}, {@code PrimOps}).
 */
package org.tebaldi.core.proc;
