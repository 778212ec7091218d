package org.tebaldi.bench.run;

/**
 * What a simulated run (docs/simulation.md) adds to its result: the hardware simulated, the cost table, and what
 * the virtual window cost in wall time.
 *
 * @param machines           machines simulated (the service machine included)
 * @param coresPerMachine    virtual cores per machine
 * @param costs              the cost table's name
 * @param costMode           {@code model} or {@code measured}
 * @param virtualMillis      virtual length of the run (warm-up, window and drain), ms
 * @param wallMillis         wall-clock time the clients' part of the simulation took, ms
 * @param machineUtilization virtual CPU time / (window × cores) of each machine over the measured window, 0..1
 * @param machineNodes       what each machine hosts, e.g. {@code 10 tc + 10 client + 10 ds}
 * @param host               the cost table's host against this one ({@link CostTableHost}): the table's host, this
 *                           host's identity and speed probe, and the line printed at the start
 */
public record SimulationInfo(int machines, int coresPerMachine, String costs, String costMode, long virtualMillis,
                             long wallMillis, double[] machineUtilization, String[] machineNodes,
                             CostTableHost host) {
    /** Wall-clock seconds the simulation spent per virtual second. */
    public double wallPerVirtualSecond() {
        return virtualMillis <= 0 ? 0 : (double) wallMillis / virtualMillis;
    }

    /** The busiest machine's utilization. */
    public double maxMachineUtilization() {
        double m = 0;
        for (double u : machineUtilization) {
            m = Math.max(m, u);
        }
        return m;
    }
}
