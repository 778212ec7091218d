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

/**
 * The cost of one transaction of {@code ops} operations (1 and 7 updates) through a CC path of depth 1 to 4
 * of each mechanism, and through Table 4.1's trees (RP alone, 2PL, SSI or RP over RP), without network
 * (docs/jmh.md; dissertation §4.6.5, Table 4.1 for the question it answers: what does each added layer
 * cost?). One invocation runs the whole transaction through the real
 * coordinator, data server and service actors of a {@link PathFixture} on a {@link DirectRuntime}: begin (TC
 * parts' start, timestamps), each operation (TC parts top-down, DS parts with the read-version chain, TC parts
 * bottom-up), validation and commit at the TC and the DS, plus the framework around them (message objects,
 * dispatch, per-transaction bookkeeping). No thread hand-off, queueing delay or emulated network is included, and
 * no transaction waits or aborts. Result: µs per transaction (average time); divide by {@code ops} for a
 * per-operation figure: (t(7) - t(1)) / 6 is the cost of one more operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Thread)
public class CcPathBenchmark {
    /** The path, e.g. {@code 2pl-3} or {@code ssi/rp} ({@link PathFixture#PATHS}, {@link PathFixture#LAYER_PATHS}). */
    @Param({"2pl-1", "2pl-2", "2pl-3", "2pl-4", "rp-1", "rp-2", "rp-3", "rp-4", "ssi-1", "ssi-2", "ssi-3", "ssi-4",
            "tso-1", "tso-2", "tso-3", "tso-4", "none-1", "2pl/rp", "ssi/rp", "rp/rp"})
    public String path;

    /** Operations per transaction: 1, and 7 as in the layer-overhead benchmark (§4.6.5). */
    @Param({"1", "7"})
    public int ops;

    private PathFixture fixture;

    /** Builds and loads the cluster of the path. */
    @Setup(Level.Trial)
    public void setUp() {
        fixture = new PathFixture(path);
    }

    /** Stops the cluster. */
    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
    }

    /**
     * One whole transaction.
     *
     * @return the virtual clock (µs), so that nothing is optimized away
     */
    @Benchmark
    public long transaction() {
        fixture.transaction(ops);
        return fixture.runtime().nowMicros();
    }
}
