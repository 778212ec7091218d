package org.tebaldi.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tebaldi.server.msg.CommitRequest;
import org.tebaldi.server.msg.ExecReply;
import org.tebaldi.server.msg.ExecRequest;
import org.tebaldi.server.msg.ValidateReply;
import org.tebaldi.server.msg.ValidateRequest;

/**
 * The per-phase cost of the TC and DS parts of a CC path (docs/architecture.md, "The CC contract": start, execute, validate, commit), same
 * paths and cluster as {@link CcPathBenchmark}. Each benchmark method runs one phase of one transaction at one
 * node, from the message that starts it to the message that hands it on, through every level of the path:
 * <ul>
 *   <li>{@code start}: the TC's start pass (every TC part's {@code start}, top-down; timestamp-service round trips
 *       for SSI and TSO), from the client's begin to the TC's answer;</li>
 *   <li>{@code executeTc}: the TC's top-down pass of an operation (every TC part's {@code beforeOp}, per-level
 *       metadata), until the request leaves for the DS;</li>
 *   <li>{@code executeDs}: the DS's execution of the operation (every DS part's {@code execute} top-down, the
 *       read-version chain bottom-up, the storage update, every DS part's {@code afterOp}), until the reply
 *       leaves;</li>
 *   <li>{@code executeTcReply}: the TC's bottom-up pass (DS reports, every TC part's {@code afterOp}) until the
 *       client gets the result;</li>
 *   <li>{@code validateTc}: the TC's handling of the commit request until the validation request leaves;</li>
 *   <li>{@code validateDs}: the DS's validation (every DS part's {@code validate}, bottom-up) until its vote
 *       leaves;</li>
 *   <li>{@code decideAndCommitTc}: at the TC, after the vote: every TC part's {@code validate} bottom-up (the
 *       decision, with SSI's and TSO's waits and service round trips) and {@code commit} leaf first — one handler
 *       in the coordinator, so one number — until the commit request leaves for the DS;</li>
 *   <li>{@code commitDs}: the DS's commit (versions installed, every DS part's {@code commit}, leaf first).</li>
 * </ul>
 * The rest of the transaction runs in per-invocation setup and teardown, outside the measurement (JMH
 * {@link Level#Invocation}: each result includes about 30 ns of timer reads; compare paths, not absolute
 * nanoseconds). Result: µs per phase.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class CcPhaseBenchmark {
    /** A path's cluster; the subclasses bring one transaction to the start of their phase before each call. */
    @State(Scope.Thread)
    public abstract static class Phase {
        /** The path ({@link PathFixture#PATHS} and {@link PathFixture#LAYER_PATHS}). */
        @Param({"2pl-1", "2pl-2", "2pl-3", "2pl-4", "rp-1", "rp-2", "rp-3", "rp-4", "ssi-1", "ssi-2", "ssi-3",
                "ssi-4", "tso-1", "tso-2", "tso-3", "tso-4", "none-1", "2pl/rp", "ssi/rp", "rp/rp"})
        public String path;

        /** The cluster. */
        protected PathFixture f;

        /** Builds and loads the cluster of the path. */
        @Setup(Level.Trial)
        public void build() {
            f = new PathFixture(path);
        }

        /** Stops the cluster. */
        @TearDown(Level.Trial)
        public void close() {
            f.close();
        }
    }

    /** Before {@code start}: the begin request is queued. */
    public static class AtStart extends Phase {
        /** Queues the begin request. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.sendBegin();
        }

        /** Runs the operation and the commit. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.operation();
            f.commit();
        }
    }

    /** Before {@code executeTc}: the transaction started, its operation is queued at the TC. */
    public static class AtExecuteTc extends Phase {
        /** Starts the transaction and queues its operation. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.sendOperation();
        }

        /** Finishes the operation and commits. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitOpDone();
            f.commit();
        }
    }

    /** Before {@code executeDs}: the operation's request is next, at the DS. */
    public static class AtExecuteDs extends Phase {
        /** Starts the transaction and runs the TC's part of its operation. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.sendOperation();
            f.runUntilNext(ExecRequest.class, PathFixture.DS);
        }

        /** Finishes the operation and commits. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitOpDone();
            f.commit();
        }
    }

    /** Before {@code executeTcReply}: the DS's reply is next, at the TC. */
    public static class AtExecuteTcReply extends Phase {
        /** Starts the transaction and runs its operation up to the DS's reply. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.sendOperation();
            f.runUntilNext(ExecReply.class, PathFixture.TC);
        }

        /** Finishes the operation and commits. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitOpDone();
            f.commit();
        }
    }

    /** Before {@code validateTc}: the operation is done, the commit request is queued at the TC. */
    public static class AtValidateTc extends Phase {
        /** Starts the transaction, runs its operation and queues the commit request. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.operation();
            f.sendCommit();
        }

        /** Finishes validation and commit. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitEnded();
        }
    }

    /** Before {@code validateDs}: the validation request is next, at the DS. */
    public static class AtValidateDs extends Phase {
        /** Runs the transaction up to the validation request at the DS. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.operation();
            f.sendCommit();
            f.runUntilNext(ValidateRequest.class, PathFixture.DS);
        }

        /** Finishes validation and commit. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitEnded();
        }
    }

    /** Before {@code decideAndCommitTc}: the DS's vote is next, at the TC. */
    public static class AtDecide extends Phase {
        /** Runs the transaction up to the DS's vote. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.operation();
            f.sendCommit();
            f.runUntilNext(ValidateReply.class, PathFixture.TC);
        }

        /** Finishes the commit. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitEnded();
        }
    }

    /** Before {@code commitDs}: the commit request is next, at the DS. */
    public static class AtCommitDs extends Phase {
        /** Runs the transaction up to the commit request at the DS. */
        @Setup(Level.Invocation)
        public void prepare() {
            f.begin();
            f.operation();
            f.sendCommit();
            f.runUntilNext(CommitRequest.class, PathFixture.DS);
        }

        /** Delivers what is left. */
        @TearDown(Level.Invocation)
        public void finish() {
            f.awaitEnded();
        }
    }

    /** The start phase at the TC (and the services it calls). @return the virtual clock, µs */
    @Benchmark
    public long start(AtStart s) {
        s.f.awaitBegun();
        return s.f.runtime().nowMicros();
    }

    /** The TC's top-down pass of one operation. @return the virtual clock, µs */
    @Benchmark
    public long executeTc(AtExecuteTc s) {
        s.f.runUntilNext(ExecRequest.class, PathFixture.DS);
        return s.f.runtime().nowMicros();
    }

    /** The DS's execution of one operation, every level. @return the virtual clock, µs */
    @Benchmark
    public long executeDs(AtExecuteDs s) {
        s.f.runUntilNext(ExecReply.class, PathFixture.TC);
        return s.f.runtime().nowMicros();
    }

    /** The TC's bottom-up pass of one operation. @return the virtual clock, µs */
    @Benchmark
    public long executeTcReply(AtExecuteTcReply s) {
        s.f.awaitOpDone();
        return s.f.runtime().nowMicros();
    }

    /** The TC's handling of the commit request, until validation is requested. @return the virtual clock, µs */
    @Benchmark
    public long validateTc(AtValidateTc s) {
        s.f.runUntilNext(ValidateRequest.class, PathFixture.DS);
        return s.f.runtime().nowMicros();
    }

    /** The DS's validation, every level. @return the virtual clock, µs */
    @Benchmark
    public long validateDs(AtValidateDs s) {
        s.f.runUntilNext(ValidateReply.class, PathFixture.TC);
        return s.f.runtime().nowMicros();
    }

    /** The TC's decision and commit, every level. @return the virtual clock, µs */
    @Benchmark
    public long decideAndCommitTc(AtDecide s) {
        s.f.runUntilNext(CommitRequest.class, PathFixture.DS);
        return s.f.runtime().nowMicros();
    }

    /** The DS's commit, every level. @return the virtual clock, µs */
    @Benchmark
    public long commitDs(AtCommitDs s) {
        s.f.deliverNext(CommitRequest.class, PathFixture.DS);
        return s.f.runtime().nowMicros();
    }
}
