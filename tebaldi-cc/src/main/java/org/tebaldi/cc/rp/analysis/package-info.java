/**
 * Runtime pipelining's static analysis (dissertation §4.4.2, §2.3.1, §5.4.2; Callas §4): the table graph of a
 * group of transaction types ({@link org.tebaldi.cc.rp.analysis.TableGraph}), its steps
 * ({@link org.tebaldi.cc.rp.analysis.StepPlan}, nested plans consistent with the ancestor's), and the group's
 * procedures reordered into step order ({@link org.tebaldi.cc.rp.analysis.RpAnalysis}, built on
 * {@code org.tebaldi.core.proc.analysis}). The RP runtime (step-level locks, step entry waits) is a separate
 * package, {@code org.tebaldi.cc.rp}.
 */
package org.tebaldi.cc.rp.analysis;
