package org.tebaldi.bench.workload.bank;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates {@link BankWorkload} from {@code workload: {name: bank, accounts: 100, auditRatio: 0.1}}: {@code accounts}
 * 2..10,000,000 (default 100), {@code auditRatio} 0..1 (default 0.1), and {@code shift} (a list of {@code {at,
 * auditRatio}}: the audit share changes during the run, {@link Shifts}).
 */
public final class BankFactory implements WorkloadFactory {
    @Override
    public String name() {
        return "bank";
    }

    @Override
    public String description() {
        return "bank transfers and read-only audits (options: accounts, auditRatio)";
    }

    @Override
    public Workload create(WorkloadOptions options) {
        int accounts = options.getInt("accounts", 100, 2, 10_000_000);
        double auditRatio = options.getDouble("auditRatio", 0.1, 0, 1);
        Shifts shifts = Shifts.read(options, java.util.Set.of("auditRatio"));
        double[] ratios = new double[shifts.size() + 1];
        ratios[0] = auditRatio;
        for (int i = 0; i < shifts.size(); i++) {
            WorkloadOptions o = shifts.options(i);
            ratios[i + 1] = o.getDouble("auditRatio", ratios[i], 0, 1);
            o.rejectUnread();
        }
        return new BankWorkload(accounts, ratios, shifts);
    }
}
