/**
 * Static analyses and transformations of stored procedures (docs/architecture.md, "Transactions", dissertation §4.4.2, §5.4.2):
 * {@link org.tebaldi.core.proc.analysis.Dependencies} (which data access depends on which: data, control, guard)
 * and {@link org.tebaldi.core.proc.analysis.Reorderer} (an equivalent procedure whose accesses run in
 * non-decreasing step order, by statement motion, {@code if} splitting, loop fission and scalar expansion), the
 * generic halves of runtime pipelining's preprocessing; the RP-specific table graph and step plan live in
 * {@code org.tebaldi.cc.rp.analysis}.
 *
 * <p>Internals: {@code ProcTree} and {@code Node} (normalized tree: condition/bound temps, webs renamed by
 * {@code Webs}), {@code DataFlow} (reaching definitions, anti/output dependencies), {@code DepGraph}
 * (statement-level dependence graph), {@code Placement} (step of every statement), {@code Emitter} and
 * {@code Carries} (step-by-step projection, scalar expansion), {@code Tidy} (temp inlining, definite assignment),
 * {@code Rewrite} and {@code Names} (helpers).
 */
package org.tebaldi.core.proc.analysis;
