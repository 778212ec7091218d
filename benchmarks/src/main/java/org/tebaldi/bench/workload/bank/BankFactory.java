package org.tebaldi.bench.workload.bank;

import org.tebaldi.bench.workload.Workload;
import org.tebaldi.bench.workload.WorkloadFactory;
import org.tebaldi.bench.workload.WorkloadOptions;

/**
 * Creates {@link BankWorkload} from {@code workload: {name: bank, accounts: 100, auditRatio: 0.1}}: {@code accounts}
 * 2..10,000,000 (default 100), {@code auditRatio} 0..1 (default 0.1).
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
        return new BankWorkload(accounts, auditRatio);
    }
}
