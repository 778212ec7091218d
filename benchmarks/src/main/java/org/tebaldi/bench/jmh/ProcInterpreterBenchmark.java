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
import org.openjdk.jmh.annotations.Warmup;
import org.tebaldi.core.proc.ProcStep;

/**
 * The cost of interpreting one TPC-C {@code new_order} or {@code payment} stored procedure from start to end,
 * with the operations it issues applied to an in-memory map instead of data servers ({@link ProcFixture}): what
 * the coordinator's node threads spend in the interpreter (docs/architecture.md, "A phase's path through the tree":
 * "the procedure runs"), plus the map operations and the {@code ExprUpdate}s applied to produce updated rows.
 * Result: ns per procedure run (average time); run with {@code -prof gc} for the bytes allocated per run
 * ({@code gc.alloc.rate.norm}).
 *
 * <pre>{@code
 * scripts/tebaldi jmh ProcInterpreterBenchmark -prof gc
 * scripts/tebaldi jmh ProcInterpreterBenchmark -p txn=new_order -p form=rp -p mode=batched -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
@State(Scope.Thread)
public class ProcInterpreterBenchmark {
    /** Transaction type ({@link ProcFixture#TXNS}). */
    @Param({"new_order", "payment"})
    public String txn;

    /** The workload's procedure ({@code plain}) or runtime pipelining's rewrite ({@code rp}, what the 3-layer tree runs). */
    @Param({"rp", "plain"})
    public String form;

    /** {@code batched} (the coordinator's default) or {@code single} (one operation at a time). */
    @Param({"batched", "single"})
    public String mode;

    private ProcFixture fixture;

    /** Loads the store and generates the inputs. */
    @Setup(Level.Trial)
    public void setUp() {
        if (!mode.equals("batched") && !mode.equals("single")) {
            throw new IllegalArgumentException("mode must be batched or single, got " + mode);
        }
        fixture = new ProcFixture(txn, form, mode.equals("batched"));
    }

    /**
     * One run of the procedure to its end.
     *
     * @return the final step, so that nothing is optimized away
     */
    @Benchmark
    public ProcStep run() {
        return fixture.run();
    }
}
