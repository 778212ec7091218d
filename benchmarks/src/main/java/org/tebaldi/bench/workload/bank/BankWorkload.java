package org.tebaldi.bench.workload.bank;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.ConsistencyResult;
import org.tebaldi.bench.workload.DataLoader;
import org.tebaldi.bench.workload.DatabaseSnapshot;
import org.tebaldi.bench.workload.Progress;
import org.tebaldi.bench.workload.Shifts;
import org.tebaldi.bench.workload.Workload;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.TableSchema;

/**
 * A small bank: table {@code account(id) → balance}, every account starting at {@value #INITIAL_BALANCE}.
 * Interactive types: {@code transfer(from, to, amount)} reads both accounts then writes both (read locks upgraded
 * to write locks, so concurrent transfers of one account deadlock and abort under 2PL), and read-only
 * {@code audit} reads every account. Both declare their table access order (just {@code account}), so runtime
 * pipelining can run them. Consistency: the total balance never changes and no account disappears.
 */
public final class BankWorkload implements Workload {
    /** Balance every account starts with. */
    public static final long INITIAL_BALANCE = 100;
    /** Table name. */
    public static final String ACCOUNT = "account";

    private final int accounts;
    /** The audit share per phase (phase 0: {@code auditRatio}; then one per shift). */
    private final double[] auditRatios;
    private final Shifts shifts;
    private final Database db;
    private final TableSchema account;

    /**
     * @param accounts   number of accounts (at least 2)
     * @param auditRatio share of audits among the transactions a client issues, 0..1
     * @throws IllegalArgumentException for fewer than 2 accounts or a ratio outside 0..1
     */
    public BankWorkload(int accounts, double auditRatio) {
        this(accounts, new double[] {auditRatio}, Shifts.NONE);
    }

    /**
     * A bank whose audit share shifts during the run.
     *
     * @param auditRatios the share in each phase of {@code shifts} (one more than its shifts), each 0..1
     * @throws IllegalArgumentException for fewer than 2 accounts, a ratio outside 0..1, or a count of ratios that
     *                                  does not match the shifts
     */
    public BankWorkload(int accounts, double[] auditRatios, Shifts shifts) {
        if (auditRatios.length != shifts.size() + 1) {
            throw new IllegalArgumentException("need " + (shifts.size() + 1) + " audit ratios, got "
                    + auditRatios.length);
        }
        for (double r : auditRatios) {
            if (!(r >= 0 && r <= 1)) {
                throw new IllegalArgumentException("auditRatio must be in 0..1, got " + r);
            }
        }
        this.auditRatios = auditRatios.clone();
        this.shifts = shifts;
        if (accounts < 2) {
            throw new IllegalArgumentException("need at least 2 accounts, got " + accounts);
        }
        this.accounts = accounts;
        Catalog c = new Catalog();
        account = c.add(ACCOUNT, 1, 0, false, Catalog.longCol("balance"));
        db = new Database(c);
        db.interactive(BankClient.TRANSFER, false, List.of(ACCOUNT), "from", "to", "amount");
        db.interactive(BankClient.AUDIT, true, List.of(ACCOUNT));
    }

    @Override
    public String name() {
        return "bank";
    }

    @Override
    public Database database() {
        return db;
    }

    /** Number of accounts. */
    public int accounts() {
        return accounts;
    }

    @Override
    public void load(DataLoader loader, Progress progress) {
        loader.expect(ACCOUNT, accounts);
        for (int i = 0; i < accounts; i++) {
            loader.load(Key.of(account, i), account.row(INITIAL_BALANCE));
            if ((i + 1) % 1000 == 0 || i + 1 == accounts) {
                progress.report(ACCOUNT, i + 1, accounts);
            }
        }
    }

    @Override
    public ClientSource newClient(int index, long seed) {
        return new BankClient(account, accounts, () -> auditRatios[shifts.phase()], seed);
    }

    @Override
    public Shifts shifts() {
        return shifts;
    }

    @Override
    public ConsistencyResult check(DatabaseSnapshot snapshot) {
        long[] total = {0};
        snapshot.forEach(ACCOUNT, (k, r) -> total[0] += r.getLong("balance"));
        long expected = INITIAL_BALANCE * accounts;
        long rows = snapshot.count(ACCOUNT);
        String summary = "total balance " + total[0] + " over " + rows + " accounts (expected " + expected + " over "
                + accounts + ")";
        List<String> problems = new ArrayList<>();
        if (total[0] != expected) {
            problems.add("total balance is " + total[0] + ", expected " + expected);
        }
        if (rows != accounts) {
            problems.add(rows + " accounts exist, expected " + accounts);
        }
        return problems.isEmpty() ? ConsistencyResult.ok(summary) : ConsistencyResult.violated(summary, problems);
    }
}
