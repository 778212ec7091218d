package org.tebaldi.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.tebaldi.bench.experiment.SweepPoint;

/**
 * The outcome of one point of a sweep, as {@code results.csv} ({@link ResultsCsv}) and the sweep charts
 * ({@link SweepCharts}) read it.
 *
 * @param point   the point
 * @param summary the point's {@code summary.json} content (schema: docs/experiments.md, "summary.json"); null if the run failed
 * @param status  what happened
 */
public record PointResult(SweepPoint point, JsonNode summary, Status status) {
    /** How a point ended. */
    public enum Status {
        /** The run finished and every check that ran passed. */
        OK("ok"),
        /** The run finished but a check failed (not serializable, or the workload's consistency check failed). */
        CHECK_FAILED("check-failed"),
        /** The run failed (a node or workload code threw, or its files could not be written): no measurements. */
        RUN_FAILED("run-failed");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        /** The text written in {@code results.csv}'s {@code status} column. */
        public String label() {
            return label;
        }
    }

    /** @throws IllegalArgumentException if a finished run has no summary */
    public PointResult {
        if (summary == null && status != Status.RUN_FAILED) {
            throw new IllegalArgumentException("point " + point.index() + " finished without a summary");
        }
    }

    /** Whether the point has measurements (its run finished). */
    public boolean measured() {
        return summary != null;
    }

    /** A number of the summary at a dotted path (e.g. {@code latency.p99Ms}); null if absent, null or unmeasured. */
    public Double number(String path) {
        JsonNode v = at(path);
        return v == null || !v.isNumber() ? null : v.doubleValue();
    }

    /** A check outcome ({@code serializable} or {@code consistency}); null if not checked or unmeasured. */
    public Boolean check(String name) {
        JsonNode v = at("checks." + name);
        return v == null || !v.isBoolean() ? null : v.booleanValue();
    }

    private JsonNode at(String path) {
        JsonNode v = summary;
        for (String p : path.split("\\.")) {
            if (v == null) {
                return null;
            }
            v = v.get(p);
        }
        return v;
    }
}
